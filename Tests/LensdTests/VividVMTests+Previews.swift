import Foundation
import LensTestSupport
import XCTest

/// The preview streams VividDeviceTests brought back from the VM, judged on the host by FFmpeg
/// and Pillow (neither is in the VM).
extension VividVMTests {
    func assertPreviews(in out: TemporaryDirectory, source: URL) throws {
        if let stream = try assertDecodes("preview-vivid.mjpeg", frames: 9, in: out) {
            try assertVividColourBars(try firstFrame(ofMJPEG: stream, in: out))
        }
        // libv4l2's RGB24 from the loopback's YUYV (a frame vivid made), scaled as vivid's RGB is.
        if let stream = try assertDecodes("preview-loopback-yuyv.mjpeg", frames: 4, in: out) {
            try assertVividColourBars(try firstFrame(ofMJPEG: stream, in: out))
        }
        if let stream = try assertDecodes("preview-loopback.mjpeg", frames: 4, in: out) {
            // The fed 640×480 JPEG, halved by TurboJPEG's DCT scaling and coded again at quality 75:
            // its picture (the gradient), not its noise, which re-encoding changes — so both are
            // compared as 40×30 block means.
            let compare = """
            import sys; from PIL import Image, ImageChops, ImageStat
            frame = Image.open(sys.argv[1]).convert("RGB")
            source = Image.open(sys.argv[2]).convert("RGB")
            blocks = lambda image: image.resize((40, 30), Image.BOX)
            print(frame.size[0], frame.size[1], max(ImageStat.Stat(ImageChops.difference(blocks(frame), blocks(source))).mean) < 3)
            """
            let result = try runProcess([try TestTools.python(), "-c", compare, try firstFrame(ofMJPEG: stream, in: out).path, source.path])
            XCTAssertEqual(String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                           "320 240 True", String(decoding: result.stderr, as: UTF8.self))
        }
    }

    /// FFmpeg reads the stream as MJPEG: `frames` frames of 320×240, every one decoding cleanly.
    private func assertDecodes(_ fileName: String, frames: Int, in out: TemporaryDirectory) throws -> URL? {
        let stream = out.file(fileName)
        guard FileManager.default.fileExists(atPath: stream.path) else {
            XCTFail("the VM brought back no \(fileName)")
            return nil
        }
        let probe = try runProcess(["ffprobe", "-v", "error", "-f", "mjpeg", "-count_frames", "-show_entries",
                                    "stream=width,height,nb_read_frames", "-of", "csv=p=0", stream.path])
        XCTAssertEqual(String(decoding: probe.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                       "320,240,\(frames)", "\(fileName): " + String(decoding: probe.stderr, as: UTF8.self))
        let decode = try runProcess(["ffmpeg", "-nostdin", "-v", "error", "-f", "mjpeg", "-i", stream.path, "-f", "null", "-"])
        XCTAssertEqual(String(decoding: decode.stderr, as: UTF8.self), "", fileName)
        return stream
    }

    private func firstFrame(ofMJPEG stream: URL, in out: TemporaryDirectory) throws -> URL {
        let frame = out.file(stream.lastPathComponent + ".first.jpg")
        let r = try runProcess(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "mjpeg", "-i", stream.path, "-frames:v", "1",
                                "-c", "copy", "-f", "mjpeg", frame.path])
        XCTAssertEqual(r.status, 0, String(decoding: r.stderr, as: UTF8.self))
        return frame
    }
}
