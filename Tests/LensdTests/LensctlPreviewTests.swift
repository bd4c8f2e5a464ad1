import Foundation
import LensClient
import LensTestSupport
import XCTest

/// `lensctl preview` against lensd on the private bus: the stream on stdout is what FFmpeg reads
/// as MJPEG, one frame to a file is a plain JPEG said to be unsigned, and a terminal is refused.
final class LensctlPreviewTests: LensdTestCase {
    override var daemonArguments: [String] { super.daemonArguments + ["--synthetic-size", "1280x720"] }

    func testFiveFramesOnStdoutAreFiveDecodableJPEGsFFprobeReadsAsMJPEG() throws {
        let r = try runProcess([try LensctlRunner.binary, "preview", "--frames", "5", "--size", "320x240", "--bus", bus.address])
        XCTAssertEqual(r.status, 0, String(decoding: r.stderr, as: UTF8.self))
        var splitter = MJPEGSplitter()
        let frames = try splitter.append(Array(r.stdout))
        XCTAssertEqual(frames.count, 5)
        XCTAssertEqual(splitter.pendingByteCount, 0, "nothing but whole frames")
        for frame in frames {
            let size = try jpegDimensions(frame)
            XCTAssertTrue(size == (320, 180), "\(size)")
        }
        let stream = tmp.file("stream.mjpeg")
        try r.stdout.write(to: stream)
        let probe = try runProcess(["ffprobe", "-v", "error", "-f", "mjpeg", "-count_frames", "-show_entries",
                                    "stream=codec_name,width,height,nb_read_frames", "-of", "csv=p=0", stream.path])
        XCTAssertEqual(String(decoding: probe.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                       "mjpeg,320,180,5", String(decoding: probe.stderr, as: UTF8.self))
        let decode = try runProcess(["ffmpeg", "-nostdin", "-v", "error", "-f", "mjpeg", "-i", stream.path, "-f", "null", "-"])
        XCTAssertEqual(decode.status, 0)
        XCTAssertEqual(String(decoding: decode.stderr, as: UTF8.self), "", "every frame decodes cleanly")
    }

    func testOneFrameToAFileIsAJPEGSaidToBeUnsigned() throws {
        let frame = tmp.file("frame.jpg")
        let r = try lensctl.expect(0, ["preview", "--frames", "1", "-o", frame.path])
        XCTAssertTrue(r.stderr.contains("1 preview frame, 640x360, UNSIGNED"), r.stderr)
        XCTAssertEqual(r.stdout, "")
        let probe = try runProcess(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0",
                                    frame.path])
        XCTAssertEqual(String(decoding: probe.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), "mjpeg,640,360")
        // An existing file is kept; --json reports what a new one holds.
        try lensctl.expect(1, ["preview", "--frames", "1", "-o", frame.path])
        let json = try lensctl.expect(0, ["preview", "--frames", "3", "-o", tmp.file("three.mjpeg").path, "--json"])
        try JSONSchemaCheck.assertValid(json.stdout, schema: "preview")
        XCTAssertTrue(json.stdout.contains("\"frames\" : 3"), json.stdout)
        XCTAssertTrue(json.stdout.contains("\"signed\" : false"), json.stdout)
    }

    func testATerminalAndBadOptionsAreRefused() throws {
        // script(1) gives lensctl a terminal for stdout; -e passes its exit code on.
        let command = "\(try LensctlRunner.binary) preview --bus \(bus.address)"
        let tty = try runProcess(["script", "-qec", command, "/dev/null"])
        XCTAssertEqual(tty.status, 2)
        XCTAssertTrue(String(decoding: tty.stdout, as: UTF8.self).contains("| ffplay -f mjpeg -i -"))
        for arguments in [["--size", "640"], ["--size", "8x8"], ["--fps", "0"], ["--quality", "101"], ["--quality", "7.5"],
                          ["--frames", "0"], ["--frames", "2", "--duration", "1"], ["--json"], ["extra"]] {
            let r = try lensctl.run(["preview"] + arguments)
            XCTAssertEqual(r.status, 2, "\(arguments): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(arguments): \(r.stderr)")
        }
    }

    func testWithoutTheCameraThePreviewFailsInOneLine() throws {
        let c = try client()
        let holder = try c.openSession()
        try c.call(holder, "StartCaptureSession")
        let r = try lensctl.expect(1, ["preview", "--frames", "1", "-o", tmp.file("frame.jpg").path])
        XCTAssertTrue(r.stderr.hasPrefix("lensctl: the camera is in use by"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.file("frame.jpg").path))
    }
}
