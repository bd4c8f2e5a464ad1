import Foundation
import LensBus
import LensCrypto
import LensTestSupport
import XCTest

/// Video end to end on the synthetic camera: recorded by a group member's peer process, judged by
/// c2pa-python (Trusted) and FFmpeg (every frame decodes, the duration lensd announced).
final class VideoFlowTests: LensdTestCase {
    override var daemonArguments: [String] {
        super.daemonArguments + ["--synthetic-size", "320x240"] + extraArguments
    }
    var extraArguments: [String] = []

    func testH264RecordingIsSignedTrustedAndPlaysForTheAnnouncedDuration() throws {
        try assertRecording(codec: "h264")
    }

    func testMJPEGRecordingIsSignedTrustedAndPlaysForTheAnnouncedDuration() throws {
        extraArguments = ["--video-encoding", "mjpeg"]
        try restartDaemon()
        try assertRecording(codec: "mjpeg")
    }

    private func assertRecording(codec: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let video = outbox.appendingPathComponent("video.mp4")
        let member = try peer(["open", "video", "start", "record", "recorded:2.5", "stoprec",
                               "wait:VideoRecordingStopped", "wait:VideoThumbnailGenerated", "wait:VideoSigned:60",
                               "fetch:\(video.path)"], as: TestUsers.member)
        XCTAssertEqual(try member.finish(), 0, "\(member.lines)", file: file, line: line)
        let order = member.lines.filter { $0.hasPrefix("signal Video") }.map { $0.split(separator: " ")[1] }
        XCTAssertEqual(order, ["VideoRecordingStarted", "VideoRecordingStopped", "VideoThumbnailGenerated", "VideoSigned"],
                       file: file, line: line)
        let thumbnailLine = try XCTUnwrap(member.lines.first { $0.hasPrefix("signal VideoThumbnailGenerated") })
        let announced = try XCTUnwrap(announcedDuration(thumbnailLine), thumbnailLine)
        let signed = try XCTUnwrap(member.lines.first { $0.hasPrefix("signal VideoSigned") })
        XCTAssertTrue(signed.contains("mime=video/mp4"), signed, file: file, line: line)

        let probe = try FFprobeReport.read(video)
        XCTAssertEqual(probe.codec, codec, file: file, line: line)
        XCTAssertEqual(probe.decodeErrors, "", file: file, line: line)
        XCTAssertTrue((probe.width, probe.height) == (320, 240), "\(probe.width)x\(probe.height)", file: file, line: line)
        XCTAssertTrue(signed.contains("frames=uint32(\(probe.frames))"), "\(signed) vs \(probe.frames) frames", file: file, line: line)
        // ± one frame at 30 fps. At least the 2.5 s of frames the peer waited for before stopping
        // were recorded; the frames until the stop only add to it.
        XCTAssertEqual(probe.duration, announced, accuracy: 1.0 / 30 + 0.001, file: file, line: line)
        XCTAssertGreaterThanOrEqual(announced, 2.5, file: file, line: line)

        let anchor = try client().trustAnchorFile(in: tmp)
        let verdict = try ReferenceValidator.assertTrusted(video, anchors: [anchor], file: file, line: line)
        XCTAssertNotNil(verdict.hardBinding["c2pa.hash.bmff.v3"], "\(verdict.hardBinding.keys)", file: file, line: line)
        XCTAssertEqual(verdict.metadata["c2pa.metadata"]?["tiff:Model"]?.string, "lensd synthetic camera", file: file, line: line)
        XCTAssertEqual(verdict.actions.first?.digitalSourceType,
                       "http://cv.iptc.org/newscodes/digitalsourcetype/algorithmicMedia", file: file, line: line)
        XCTAssertTrue(temporaryFiles().isEmpty, "\(temporaryFiles())", file: file, line: line)
        XCTAssertTrue(recordingJournals().isEmpty, "\(recordingJournals())", file: file, line: line)
    }

    func testTheMaximumDurationStopsAndSignsTheRecording() throws {
        extraArguments = ["--video-max-duration", "1"]
        try restartDaemon()
        let member = try peer(["open", "video", "start", "record", "wait:VideoRecordingStopped:20",
                               "wait:VideoThumbnailGenerated", "wait:VideoSigned:60"], as: TestUsers.member)
        XCTAssertEqual(try member.finish(), 0, "\(member.lines)")
        let thumbnailLine = try XCTUnwrap(member.lines.first { $0.hasPrefix("signal VideoThumbnailGenerated") })
        // Stopped at the first frame at or past the limit; a loaded machine's skipped frames only lengthen that frame.
        let announced = try XCTUnwrap(announcedDuration(thumbnailLine), thumbnailLine)
        XCTAssertGreaterThanOrEqual(announced, 1.0)
        XCTAssertLessThan(announced, 1.5)
    }

    func testTheMaximumSizeStopsAndSignsTheRecording() throws {
        extraArguments = ["--video-encoding", "mjpeg", "--video-max-bytes", "1048576"]
        try restartDaemon()
        let member = try peer(["open", "video", "start", "record", "wait:VideoRecordingStopped:30",
                               "wait:VideoSigned:60", Self.listResults], as: TestUsers.member)
        XCTAssertEqual(try member.finish(), 0, "\(member.lines)")
        try assertStoppedInTime(member, limit: "video-max-bytes")
    }

    /// The owner's whole allowance is the tighter limit: the recording stops while the finished
    /// file still fits in it, and is kept, listed, Trusted, with the owner told why it stopped.
    func testThePerUserByteCapStopsARecordingThatIsKept() throws {
        extraArguments = ["--video-encoding", "mjpeg", "--max-result-bytes-per-user", "1M"]
        try restartDaemon()
        let member = try peer(["open", "video", "start", "record", "wait:VideoRecordingStopped:30",
                               "wait:VideoSigned:60", Self.listResults], as: TestUsers.member)
        XCTAssertEqual(try member.finish(), 0, "\(member.lines)")
        try assertStoppedInTime(member, limit: "max-result-bytes-per-user")
    }

    private static let listResults = "call:/org/lensd/Lens1:org.lensd.Lens1.Manager:ListResults"

    private func assertStoppedInTime(_ member: PeerProcess, limit: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let signed = try XCTUnwrap(member.lines.first { $0.hasPrefix("signal VideoSigned") }, file: file, line: line)
        XCTAssertTrue(signed.contains("limit=\(limit),"), signed, file: file, line: line)
        let stored = try waitForStoredVideo()
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: stored.path)[.size] as? Int)
        // Stopped before the next frame could make the finished file, moov included, outgrow the
        // limit; not long before (a 320x240 JPEG frame is tens of KB).
        XCTAssertLessThanOrEqual(size, 1 << 20, "\(size) bytes", file: file, line: line)
        XCTAssertGreaterThan(size, (1 << 20) - (256 << 10), "\(size) bytes", file: file, line: line)
        let listed = try XCTUnwrap(member.lines.first { $0.hasPrefix("reply \(Self.listResults)") }, file: file, line: line)
        XCTAssertTrue(listed.contains(stored.deletingPathExtension().lastPathComponent), listed, file: file, line: line)
        try ReferenceValidator.assertTrusted(stored, anchors: [try client().trustAnchorFile(in: tmp)], file: file, line: line)
    }

    func testAnOwnerThatLeavesMidRecordingStillGetsItsSignedVideo() throws {
        let member = try peer(["open", "video", "start", "record", "recorded:1.5"], as: TestUsers.member)
        XCTAssertEqual(try member.finish(), 0, "\(member.lines)")
        let stored = try waitForStoredVideo()
        try ReferenceValidator.assertTrusted(stored, anchors: [try client().trustAnchorFile(in: tmp)])
        XCTAssertGreaterThan(try FFprobeReport.read(stored).frames, 10)
    }

    /// Every misuse answers with its frozen error, and the daemon keeps answering.
    func testMisuseIsRefusedWithTheFrozenErrors() throws {
        let c = try client()
        let session = try c.openSession()
        try assertError("NotStarted") { try c.call(session, "StartVideoCapture") }
        try assertError("NotStarted") { try c.call(session, "StopVideoCapture") }
        try c.call(session, "StartCaptureSession")
        try assertError("Unsupported") { try c.call(session, "StartVideoCapture") }
        try assertError("InvalidArgument") { try c.set(session, "CameraMode", .string("movie")) }
        try c.set(session, "CameraMode", .string("video"))
        try assertError("Unsupported") { try c.call(session, "BeginCapture") }
        XCTAssertEqual(try c.get(session, "IsRecordingVideo").boolValue, false)
        XCTAssertEqual(try c.get(session, "VideoRecordingProgress").vardictValue?.isEmpty, true)
        try c.call(session, "StartVideoCapture")
        XCTAssertEqual(try c.get(session, "IsRecordingVideo").boolValue, true)
        try assertError("Busy") { try c.call(session, "StartVideoCapture") }
        try assertError("Busy") { try c.set(session, "CameraMode", .string("photo")) }
        try assertError("Busy") { try c.call(session, "ChangeCamera") }
        try c.waitUntilRecorded(session, seconds: 1)
        let progress = try XCTUnwrap(c.get(session, "VideoRecordingProgress").vardictValue)
        XCTAssertGreaterThan(progress["size"]?.uint64Value ?? 0, 1000, "\(progress)")
        try c.call(session, "StopVideoCapture")
        _ = try c.waitForSignal("VideoSigned", timeout: 60)
        XCTAssertEqual(try c.get(session, "IsRecordingVideo").boolValue, false)
        try assertError("NotStarted") { try c.call(session, "StopVideoCapture") }
        let changes = c.signals.filter { $0.member == "PropertiesChanged" }
            .compactMap { $0.arguments.dropFirst().first?.vardictValue?["IsRecordingVideo"]?.boolValue }
        XCTAssertEqual(changes, [true, false])
        try c.ping()
    }

    /// A video is handed out as a read-only descriptor of the stored file, not copied into a
    /// memfd: the client can read every byte (ReadResult refuses videos) and write none.
    func testFetchResultHandsOutTheVideoReadOnlyWithoutCopyingIt() throws {
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        try c.waitUntilRecorded(session, seconds: 1)
        try c.call(session, "StopVideoCapture")
        let name = try XCTUnwrap(try c.waitForSignal("VideoSigned", path: session, timeout: 60).arguments.first?.stringValue)
        let reply = try c.call(session, "FetchResult", [.string(name)])
        let fd = try XCTUnwrap(reply.first?.fdValue)
        defer { close(fd) }
        let info = try XCTUnwrap(reply.last?.vardictValue)
        XCTAssertEqual(fcntl(fd, F_GETFL) & O_ACCMODE, O_RDONLY)
        XCTAssertEqual(write(fd, "x", 1), -1)
        XCTAssertFalse(((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) ?? "").hasPrefix("/memfd:"))
        var bytes = [UInt8](repeating: 0, count: Int(info["size"]?.uint64Value ?? 0))
        XCTAssertEqual(bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }, bytes.count)
        XCTAssertEqual(Digest.hash(bytes).map { String(format: "%02x", $0) }.joined(), info["sha256"]?.stringValue)
        try assertError("Unsupported") { try c.call(session, "ReadResult", [.string(name)]) }
    }

    /// The synthetic camera crops its video frames too: a zoom set before recording is in the
    /// manifest, as for photos.
    func testTheZoomOfARecordingIsInItsManifest() throws {
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        try c.call(session, "SetZoomFactor", [.double(2)])
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        try c.waitUntilRecorded(session, seconds: 1)
        try c.call(session, "StopVideoCapture")
        let name = try XCTUnwrap(try c.waitForSignal("VideoSigned", path: session, timeout: 60).arguments.first?.stringValue)
        let stored = try waitForStoredVideo(named: name)
        let verdict = try ReferenceValidator.assertTrusted(stored, anchors: [try c.trustAnchorFile(in: tmp)])
        XCTAssertEqual(verdict.metadata["c2pa.metadata"]?["exif:DigitalZoomRatio"]?.string, "200/100")
    }

    /// The synthetic camera zooms its video frames, so zoom works while recording; the manifest
    /// then gives the largest digital zoom any recorded frame had (2×, though the recording ends
    /// at 1.5×). Changing the camera stays Busy, saying why.
    func testAZoomWhileRecordingIsInItsManifestAsItsLargestRatio() throws {
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        try c.waitUntilRecorded(session, seconds: 0.5)
        XCTAssertEqual(try c.call(session, "SetZoomFactor", [.double(2)]).first?.doubleValue, 2)
        try c.waitUntilRecorded(session, seconds: 1)  // half a second of frames at 2×
        XCTAssertEqual(try c.call(session, "SetZoomFactor", [.double(1.5)]).first?.doubleValue, 1.5)
        XCTAssertThrowsError(try c.call(session, "ChangeCamera")) {
            XCTAssertEqual(($0 as? BusError)?.name, "org.lensd.Lens1.Error.Busy")
            XCTAssertTrue(($0 as? BusError)?.message.contains("bound to the camera it started on") == true, "\($0)")
        }
        try c.waitUntilRecorded(session, seconds: 1.5)
        try c.call(session, "StopVideoCapture")
        let name = try XCTUnwrap(try c.waitForSignal("VideoSigned", path: session, timeout: 60).arguments.first?.stringValue)
        let stored = try waitForStoredVideo(named: name)
        let verdict = try ReferenceValidator.assertTrusted(stored, anchors: [try c.trustAnchorFile(in: tmp)])
        XCTAssertEqual(verdict.metadata["c2pa.metadata"]?["exif:DigitalZoomRatio"]?.string, "200/100")
    }

    /// lensd killed mid-recording: after the restart the recording plays up to its last complete
    /// fragment and is signed; the photo taken before it is still there.
    func testARecordingInterruptedByACrashIsRecoveredAndSigned() throws {
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        let photo = try XCTUnwrap(try c.call(session, "BeginCapture").first?.stringValue)
        _ = try c.waitForSignal("PhotoSigned")
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        let journal = try waitForJournalFragments(2)
        daemon.stop(signal: SIGKILL)
        let name = String(journal.lastPathComponent.dropFirst(".recording-".count).prefix(36))

        try restartDaemon()
        // Its owner is told on their next session, whether it opens before or after the recovery.
        let owner = try client()
        let next = try owner.openSession()
        let announced = try owner.waitForSignal("VideoSigned", path: next, timeout: 60)
        XCTAssertEqual(announced.arguments.first?.stringValue, name)
        XCTAssertEqual(announced.arguments.last?.vardictValue?["recovered"]?.boolValue, true)
        let stored = try waitForStoredVideo(named: name)
        let probe = try FFprobeReport.read(stored)
        XCTAssertEqual(probe.decodeErrors, "")
        // One fragment per second of frames: at least the first two were complete.
        XCTAssertGreaterThanOrEqual(probe.frames, 50, "\(probe)")
        try ReferenceValidator.assertTrusted(stored, anchors: [try client().trustAnchorFile(in: tmp)])
        XCTAssertTrue(daemon.log.contains("video \(name): recovered after a crash"), daemon.log)
        XCTAssertTrue(storedPhotos().contains { $0.lastPathComponent == "\(photo).jpg" })
        XCTAssertTrue(recordingJournals().isEmpty, "\(recordingJournals())")
    }

    /// A service stop (SIGTERM) mid-recording ends it like StopVideoCapture: lensd signs and
    /// publishes it before exiting, and the owner hears about it.
    func testAServiceStopFinishesTheRecordingFirst() throws {
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        let anchor = try c.trustAnchorFile(in: tmp)
        try c.waitUntilRecorded(session, seconds: 1.5)
        kill(daemon.pid, SIGTERM)
        let signed = try c.waitForSignal("VideoSigned", path: session, timeout: 30)
        let name = try XCTUnwrap(signed.arguments.first?.stringValue)
        daemon.process?.waitUntilExit()
        XCTAssertEqual(daemon.process?.terminationStatus, 0, daemon.log)
        let stored = try waitForStoredVideo(named: name, timeout: 1)
        try ReferenceValidator.assertTrusted(stored, anchors: [anchor])
        XCTAssertFalse(daemon.log.contains("recovered after a crash"), daemon.log)
        XCTAssertTrue(recordingJournals().isEmpty, "\(recordingJournals())")
    }

    /// Without the facts written at its start, a recovered recording cannot say what made it:
    /// it is kept playable but unsigned.
    func testARecoveredRecordingWithoutItsFactsIsKeptUnsigned() throws {
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        let journal = try waitForJournalFragments(1)
        daemon.stop(signal: SIGKILL)
        try FileManager.default.removeItem(at: journal.appendingPathExtension("facts"))
        let name = String(journal.lastPathComponent.dropFirst(".recording-".count).prefix(36))

        try restartDaemon()
        let stored = try waitForStoredVideo(named: name)
        XCTAssertEqual(try FFprobeReport.read(stored).decodeErrors, "")
        let verdict = try ReferenceValidator.verdict(file: stored)
        XCTAssertEqual(verdict.exitStatus, 2, "no manifest expected: \(verdict.validationState ?? "-")")
        // Published while its owner had no session: told when the next one opens.
        let owner = try client()
        let next = try owner.openSession()
        let announced = try owner.waitForSignal("VideoUnsigned", path: next)
        XCTAssertEqual(announced.arguments.first?.stringValue, name)
        let info = try XCTUnwrap(announced.arguments.last?.vardictValue)
        XCTAssertEqual(info["recovered"]?.boolValue, true)
        XCTAssertTrue(info["reason"]?.stringValue?.contains("lost in the crash") == true, "\(info)")
        XCTAssertTrue(daemon.log.contains("kept unsigned"), daemon.log)
    }

    // MARK: Helpers

    /// The duration in the peer's "signal VideoThumbnailGenerated NAME bytes:N double(D)" line.
    private func announcedDuration(_ line: String) -> Double? {
        guard let last = line.split(separator: " ").last, last.hasPrefix("double("), last.hasSuffix(")") else { return nil }
        return Double(last.dropFirst("double(".count).dropLast())
    }

    private func assertError(_ name: String, _ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual((error as? BusError)?.name, "org.lensd.Lens1.Error.\(name)", "\(error)", file: file, line: line)
        }
    }

    private func recordingJournals() -> [URL] {
        allFiles().filter { $0.lastPathComponent.hasPrefix(".recording-") && $0.pathExtension == "mp4" }
    }

    private func allFiles() -> [URL] {
        let results = daemon.stateDirectory.appendingPathComponent("results")
        let enumerator = FileManager.default.enumerator(atPath: results.path)
        return (enumerator?.allObjects as? [String] ?? []).map { results.appendingPathComponent($0) }
    }

    private func waitForStoredVideo(named name: String? = nil, timeout: TimeInterval = 60) throws -> URL {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let found = allFiles().first(where: {
                $0.pathExtension == "mp4" && !$0.lastPathComponent.hasPrefix(".") && (name == nil || $0.lastPathComponent == "\(name!).mp4")
            }) { return found }
            Thread.sleep(forTimeInterval: 0.2)
        }
        throw TestToolError("no stored video after \(timeout) s:\n\(daemon.log)")
    }
}
