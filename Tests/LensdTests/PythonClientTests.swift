import Foundation
import LensTestSupport
import XCTest

/// The examples in clients/python: jeepney captures or records, receives the memfd from
/// FetchResult, and writes a photo or video that the reference implementation trusts. As root
/// they run in the venv; as a member of group lens, from a copy (PythonClientCopy).
final class PythonClientTests: LensdTestCase {
    override var daemonArguments: [String] {
        ["--camera", "synthetic", "--location", "optional", "--gpsd", "none", "--synthetic-size", "320x240"]
    }

    private var example: String { TestTools.repoRoot.appendingPathComponent("clients/python/lens_capture.py").path }

    func testThePythonExampleFetchesATrustedPhoto() throws {
        let photo = outbox.appendingPathComponent("python.jpg")
        let r = try runProcess([try TestTools.python(), example, "--bus", bus.address, "-o", photo.path])
        let output = String(decoding: r.stdout, as: UTF8.self)
        XCTAssertEqual(r.status, 0, output + String(decoding: r.stderr, as: UTF8.self))
        XCTAssertTrue(String(decoding: r.stderr, as: UTF8.self).contains("thumbnail of"), String(decoding: r.stderr, as: UTF8.self))
        let anchor = try client().trustAnchorFile(in: tmp)
        try ReferenceValidator.assertTrusted(photo, anchors: [anchor])
        XCTAssertEqual(try storedPhotos().map { try Data(contentsOf: $0) }, [try Data(contentsOf: photo)])
        XCTAssertTrue(output.contains("size:   \(try Data(contentsOf: photo).count) bytes"), output)
    }

    func testThePythonExampleReportsAMissingDaemon() throws {
        daemon.stop()
        let r = try runProcess([try TestTools.python(), example, "--bus", bus.address, "-o", outbox.appendingPathComponent("x.jpg").path])
        XCTAssertEqual(r.status, 3, String(decoding: r.stderr, as: UTF8.self))
    }

    /// lens_record.py run by a member of group lens: one line describing a signed MP4 that
    /// c2pa-python trusts, that ffmpeg decodes cleanly, with as many frames as the line says.
    func testThePythonRecorderFetchesATrustedVideo() throws {
        let clip = outbox.appendingPathComponent("clip.mp4")
        let r = try runRecorder(["--duration", "1.5", "-o", clip.path], as: TestUsers.member)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("thumbnail of"), r.stderr)
        // NAME  S s  F frames  BYTES bytes  PATH  signed
        XCTAssertEqual(r.stdout.split(separator: "\n").count, 1, r.stdout)
        let fields = r.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        XCTAssertEqual(fields.count, 9, r.stdout)
        guard fields.count == 9 else { return }
        XCTAssertEqual([fields[2], fields[4], fields[6], fields[7], fields[8]], ["s", "frames", "bytes", clip.path, "signed"])

        let video = try Data(contentsOf: clip)
        XCTAssertEqual(Int(fields[5]), video.count)
        XCTAssertEqual(try storedVideos().map { try Data(contentsOf: $0) }, [video])
        XCTAssertEqual(storedVideos().first?.deletingPathExtension().lastPathComponent, fields[0])
        let probe = try FFprobeReport.read(clip)
        XCTAssertEqual(probe.decodeErrors, "")
        XCTAssertEqual([probe.codec, "\(probe.width)x\(probe.height)"], ["h264", "320x240"])
        XCTAssertEqual(Int(fields[3]), probe.frames, r.stdout)
        XCTAssertGreaterThanOrEqual(probe.duration, 1.0)
        XCTAssertEqual(Double(fields[1]) ?? 0, probe.duration, accuracy: 0.2, r.stdout)
        try ReferenceValidator.assertTrusted(clip, anchors: [try client().trustAnchorFile(in: tmp)])
        // The member's file, in one piece: no temporary file left beside it.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outbox.path), ["clip.mp4"])
        let owner = try FileManager.default.attributesOfItem(atPath: clip.path)[.ownerAccountID] as? UInt32
        XCTAssertEqual(owner, try TestUsers.uid(TestUsers.member))
    }

    /// lensd stops a recording at video-max-duration: the script sees VideoRecordingStopped and
    /// goes on to the signed video instead of waiting out --duration.
    func testThePythonRecorderFollowsLensdsStop() throws {
        try restartDaemon(arguments: daemonArguments + ["--video-max-duration", "1"])
        let clip = outbox.appendingPathComponent("clip.mp4")
        let started = Date()
        let r = try runRecorder(["--duration", "60", "-o", clip.path], as: TestUsers.member)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30)
        XCTAssertEqual(try FFprobeReport.read(clip).duration, 1, accuracy: 0.3)
        try ReferenceValidator.assertTrusted(clip, anchors: [try client().trustAnchorFile(in: tmp)])
    }

    /// 2 for a duration that is not a positive number, 4 outside group lens, 3 without lensd, and
    /// 1 for an existing file (before lensd is asked, so not 3); no file is written or replaced.
    func testThePythonRecorderExitCodes() throws {
        let clip = outbox.appendingPathComponent("clip.mp4")
        for duration in ["0", "-1", "nan", "inf", "ten"] {
            let r = try runRecorder(["--duration", duration, "-o", clip.path], as: TestUsers.member)
            XCTAssertEqual(r.status, 2, "--duration \(duration): \(r.stderr)")
        }
        let outsider = try runRecorder(["--duration", "1", "-o", clip.path], as: TestUsers.outsider)
        XCTAssertEqual(outsider.status, 4, outsider.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outbox.path), [])

        daemon.stop()
        let missing = try runRecorder(["--duration", "1", "-o", clip.path], as: TestUsers.member)
        XCTAssertEqual(missing.status, 3, missing.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outbox.path), [])
        try Data("keep me".utf8).write(to: clip)
        let existing = try runRecorder(["--duration", "1", "-o", clip.path], as: TestUsers.member)
        XCTAssertEqual(existing.status, 1, existing.stderr)
        XCTAssertEqual(try Data(contentsOf: clip), Data("keep me".utf8))
    }

    private func runRecorder(_ arguments: [String], as user: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try runPythonRecorder(from: TestTools.repoRoot.appendingPathComponent("clients"), arguments, as: user)
    }
}

extension LensdTestCase {
    /// `clients`/python/lens_record.py as `user`, against this test's bus, from a copy `user` can
    /// read (PythonClientCopy).
    func runPythonRecorder(from clients: URL, _ arguments: [String], as user: String) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let copy = try PythonClientCopy(of: clients.appendingPathComponent("python"), in: tmp)
        let r = try runProcess(TestUsers.asUser(user, copy.argv("lens_record.py", ["--bus", bus.address] + arguments)))
        return (r.status, String(decoding: r.stdout, as: UTF8.self), String(decoding: r.stderr, as: UTF8.self))
    }
}
