import Foundation
import LensBus
import LensContract
import LensCrypto
import LensIdentity
import LensTestSupport
import XCTest

/// Video in process on the synthetic camera (320x240): recorded by a group member, judged by
/// c2pa-python (Trusted) and FFmpeg (every frame decodes, the duration lensd announced); the
/// limits that stop a recording, an owner that leaves, misuse, FetchResult's read-only
/// descriptor, zoom. Frames come in real time, so each recording is as short as what it proves
/// allows. What a crash or a service stop does to a recording stays on the bus (VideoFlowTests).
final class VideoRecordingFlowTests: XCTestCase {
    private var lensd: DaemonHarness!
    private var tmp: TemporaryDirectory!

    override func setUpWithError() throws {
        try TestUsers.ensure()
        tmp = try TemporaryDirectory(prefix: "lensd-video-flow")
    }

    override func tearDownWithError() throws {
        defer { tmp = nil }  // last: XCTest keeps the test case object until the process exits
        try lensd?.shutDown()
        lensd = nil
    }

    private func start(_ arguments: [String] = []) throws {
        lensd = try DaemonHarness(arguments)
    }

    private func member() throws -> HarnessClient { lensd.client(uid: try TestUsers.uid(TestUsers.member)) }

    func testH264RecordingIsSignedTrustedAndPlaysForTheAnnouncedDuration() throws {
        try start()
        try assertRecording(codec: "h264")
    }

    func testMJPEGRecordingIsSignedTrustedAndPlaysForTheAnnouncedDuration() throws {
        try start(["--video-encoding", "mjpeg"])
        try assertRecording(codec: "mjpeg")
    }

    private func assertRecording(codec: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let c = try member()
        let session = try c.claimedSession()
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        try c.waitUntilRecorded(session, seconds: 2.5)
        try c.call(session, "StopVideoCapture")
        try c.waitForSignal("VideoRecordingStopped", path: session)
        let thumbnail = try c.waitForSignal("VideoThumbnailGenerated", path: session)
        let signed = try c.waitForSignal("VideoSigned", path: session, timeout: .seconds(60))
        let order = c.signals.filter { $0.path == session && $0.member.hasPrefix("Video") }.map(\.member)
        XCTAssertEqual(order, ["VideoRecordingStarted", "VideoRecordingStopped", "VideoThumbnailGenerated", "VideoSigned"],
                       file: file, line: line)
        let announced = try XCTUnwrap(thumbnail.arguments.last?.doubleValue, "\(thumbnail.arguments)")
        let name = try XCTUnwrap(signed.arguments.first?.stringValue)
        let info = try XCTUnwrap(signed.arguments.last?.vardictValue)
        XCTAssertEqual(info["mime"]?.stringValue, "video/mp4", file: file, line: line)

        let video = tmp.file("video.mp4")
        try c.fetchResult(name, in: session, to: video)
        let probe = try FFprobeReport.read(video)
        XCTAssertEqual(probe.codec, codec, file: file, line: line)
        XCTAssertEqual(probe.decodeErrors, "", file: file, line: line)
        XCTAssertTrue((probe.width, probe.height) == (320, 240), "\(probe.width)x\(probe.height)", file: file, line: line)
        XCTAssertEqual(info["frames"]?.uint32Value, UInt32(probe.frames), "\(info)", file: file, line: line)
        // ± one frame at 30 fps. At least the 2.5 s of frames waited for before stopping were
        // recorded; the frames until the stop only add to it.
        XCTAssertEqual(probe.duration, announced, accuracy: 1.0 / 30 + 0.001, file: file, line: line)
        XCTAssertGreaterThanOrEqual(announced, 2.5, file: file, line: line)

        let verdict = try ReferenceValidator.assertTrusted(video, anchors: [try c.trustAnchorFile(in: tmp)], file: file, line: line)
        XCTAssertNotNil(verdict.hardBinding["c2pa.hash.bmff.v3"], "\(verdict.hardBinding.keys)", file: file, line: line)
        XCTAssertEqual(verdict.metadata["c2pa.metadata"]?["tiff:Model"]?.string, "lensd synthetic camera", file: file, line: line)
        XCTAssertEqual(verdict.actions.first?.digitalSourceType,
                       "http://cv.iptc.org/newscodes/digitalsourcetype/algorithmicMedia", file: file, line: line)
        try ConformanceRubric.assertConformant(video, anchors: [try c.trustAnchorFile(in: tmp)], capturedMedia: false,
                                               file: file, line: line)
        XCTAssertEqual(lensd.stateFiles.temporaryFiles, [], file: file, line: line)
        XCTAssertEqual(lensd.stateFiles.recordingJournals, [], file: file, line: line)
    }

    func testTheMaximumDurationStopsAndSignsTheRecording() throws {
        try start(["--video-max-duration", "1"])
        let c = try member()
        let session = try c.claimedSession()
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        try c.waitForSignal("VideoRecordingStopped", path: session, timeout: .seconds(20))
        let thumbnail = try c.waitForSignal("VideoThumbnailGenerated", path: session)
        try c.waitForSignal("VideoSigned", path: session, timeout: .seconds(60))
        // Stopped at the first frame at or past the limit; a loaded machine's skipped frames only lengthen that frame.
        let announced = try XCTUnwrap(thumbnail.arguments.last?.doubleValue, "\(thumbnail.arguments)")
        XCTAssertGreaterThanOrEqual(announced, 1.0)
        XCTAssertLessThan(announced, 1.5)
    }

    func testTheMaximumSizeStopsAndSignsTheRecording() throws {
        try start(["--video-encoding", "mjpeg", "--video-max-bytes", "1048576"] + Self.largeFrames)
        try assertStoppedInTime(limit: "video-max-bytes")
    }

    /// The owner's whole allowance is the tighter limit: the recording stops while the finished
    /// file still fits in it, and is kept, listed, Trusted, with the owner told why it stopped.
    func testThePerUserByteCapStopsARecordingThatIsKept() throws {
        try start(["--video-encoding", "mjpeg", "--max-result-bytes-per-user", "1M"] + Self.largeFrames)
        try assertStoppedInTime(limit: "max-result-bytes-per-user")
    }

    /// Frames of about 35 KB: a megabyte is reached in about thirty of them, a second, not in the
    /// six seconds 320x240 ones take.
    private static let largeFrames = ["--synthetic-size", "1280x720"]

    private func assertStoppedInTime(limit: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let c = try member()
        let session = try c.claimedSession()
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        try c.waitForSignal("VideoRecordingStopped", path: session, timeout: .seconds(30))
        let signed = try c.waitForSignal("VideoSigned", path: session, timeout: .seconds(60))
        XCTAssertEqual(signed.arguments.last?.vardictValue?["limit"]?.stringValue, limit, "\(signed.arguments)", file: file, line: line)
        let name = try XCTUnwrap(signed.arguments.first?.stringValue)
        let stored = try XCTUnwrap(lensd.stateFiles.video(named: name), "\(lensd.stateFiles.all)", file: file, line: line)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: stored.path)[.size] as? Int)
        // Stopped before the next frame could make the finished file, moov included, outgrow the
        // limit; not long before (a 1280x720 JPEG frame is about 35 KB).
        XCTAssertLessThanOrEqual(size, 1 << 20, "\(size) bytes", file: file, line: line)
        XCTAssertGreaterThan(size, (1 << 20) - (256 << 10), "\(size) bytes", file: file, line: line)
        let listed = try XCTUnwrap(c.callManager("ListResults").first?.arrayValue).compactMap { $0.vardictValue?["name"]?.stringValue }
        XCTAssertEqual(listed, [name], file: file, line: line)
        try ReferenceValidator.assertTrusted(stored, anchors: [try c.trustAnchorFile(in: tmp)], file: file, line: line)
    }

    func testAnOwnerThatLeavesMidRecordingStillGetsItsSignedVideo() throws {
        try start()
        let c = try member()
        let session = try c.claimedSession()
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        try c.waitUntilRecorded(session, seconds: 1.5)
        c.disconnect()
        try lensd.loop.run(until: { !lensd.stateFiles.videos.isEmpty }, timeout: .seconds(60), "the recording stored")
        let stored = try XCTUnwrap(lensd.stateFiles.videos.first)
        try ReferenceValidator.assertTrusted(stored, anchors: [try lensd.client().trustAnchorFile(in: tmp)])
        XCTAssertGreaterThan(try FFprobeReport.read(stored).frames, 10)
    }

    /// Every misuse answers with its frozen error, and the daemon keeps answering.
    func testMisuseIsRefusedWithTheFrozenErrors() throws {
        try start()
        let c = lensd.client()
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
        try c.waitForSignal("VideoSigned", path: session, timeout: .seconds(60))
        XCTAssertEqual(try c.get(session, "IsRecordingVideo").boolValue, false)
        try assertError("NotStarted") { try c.call(session, "StopVideoCapture") }
        let changes = c.signals.filter { $0.member == "PropertiesChanged" && $0.path == session }
            .compactMap { $0.arguments.dropFirst().first?.vardictValue?["IsRecordingVideo"]?.boolValue }
        XCTAssertEqual(changes, [true, false])
        XCTAssertNotNil(try c.managerProperty("EnrollmentState").stringValue, "lensd still answers")
    }

    /// A video is handed out as a read-only descriptor of the stored file, not copied into a
    /// memfd: the client can read every byte (ReadResult refuses videos) and write none.
    func testFetchResultHandsOutTheVideoReadOnlyWithoutCopyingIt() throws {
        try start()
        let c = lensd.client()
        let session = try c.claimedSession()
        let name = try c.recordVideo(in: session, seconds: 1).name
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

    /// ListResults gives a video's SHA-256 as a photo's (issue 34): taken on the storage thread
    /// once the video is announced, which ListResults' answer queues behind.
    func testAListedVideoHasTheSHA256OfItsFile() throws {
        try start()
        let c = lensd.client()
        let session = try c.claimedSession()
        let name = try c.recordVideo(in: session, seconds: 1).name
        let listed = try XCTUnwrap(c.callManager("ListResults").first?.arrayValue?.compactMap(\.vardictValue).first {
            $0["name"]?.stringValue == name
        })
        let file = lensd.tmp.file("listed.mp4")
        try c.fetchResult(name, in: session, to: file)
        let bytes = Array(try Data(contentsOf: file))
        XCTAssertEqual(listed["sha256"]?.stringValue, Digest.hash(bytes).map { String(format: "%02x", $0) }.joined())
    }

    /// The synthetic camera crops its video frames too: a zoom set before recording is in the
    /// manifest, as for photos.
    func testTheZoomOfARecordingIsInItsManifest() throws {
        try start()
        let c = lensd.client()
        let session = try c.claimedSession()
        try c.call(session, "SetZoomFactor", [.double(2)])
        let name = try c.recordVideo(in: session, seconds: 1).name
        let stored = try XCTUnwrap(lensd.stateFiles.video(named: name))
        let verdict = try ReferenceValidator.assertTrusted(stored, anchors: [try c.trustAnchorFile(in: tmp)])
        XCTAssertEqual(verdict.metadata["c2pa.metadata"]?["exif:DigitalZoomRatio"]?.string, "200/100")
    }

    /// The synthetic camera zooms its video frames, so zoom works while recording; the manifest
    /// then gives the largest digital zoom any recorded frame had (2×, though the recording ends
    /// at 1.5×). Changing the camera stays Busy, saying why.
    func testAZoomWhileRecordingIsInItsManifestAsItsLargestRatio() throws {
        try start()
        let c = lensd.client()
        let session = try c.claimedSession()
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartVideoCapture")
        try c.waitUntilRecorded(session, seconds: 0.5)
        XCTAssertEqual(try c.call(session, "SetZoomFactor", [.double(2)]).first?.doubleValue, 2)
        try c.waitUntilRecorded(session, seconds: 1)  // half a second of frames at 2×
        XCTAssertEqual(try c.call(session, "SetZoomFactor", [.double(1.5)]).first?.doubleValue, 1.5)
        XCTAssertThrowsError(try c.call(session, "ChangeCamera")) {
            XCTAssertEqual($0.shortName, "Busy")
            XCTAssertTrue(($0 as? BusError)?.message.contains("bound to the camera it started on") == true, "\($0)")
        }
        try c.waitUntilRecorded(session, seconds: 1.5)
        try c.call(session, "StopVideoCapture")
        let signed = try c.waitForSignal("VideoSigned", path: session, timeout: .seconds(60))
        let stored = try XCTUnwrap(lensd.stateFiles.video(named: try XCTUnwrap(signed.arguments.first?.stringValue)))
        let verdict = try ReferenceValidator.assertTrusted(stored, anchors: [try c.trustAnchorFile(in: tmp)])
        XCTAssertEqual(verdict.metadata["c2pa.metadata"]?["exif:DigitalZoomRatio"]?.string, "200/100")
    }

    private func assertError(_ name: String, _ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual((error as? BusError)?.name, "\(Lens1.errorPrefix)\(name)", "\(error)", file: file, line: line)
        }
    }
}
