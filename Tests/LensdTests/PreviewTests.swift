import Foundation
import LensBus
import LensClient
import LensTestSupport
import XCTest

/// The live preview on the private system bus with the shipped policy and the synthetic camera
/// (1280×720 at 30 fps): frames FFmpeg decodes at the size lensd announced, who may open one,
/// and every way it ends — each closing the stream (EOF) and freeing lensd's descriptor.
final class PreviewTests: LensdTestCase {
    override var daemonArguments: [String] { super.daemonArguments + ["--synthetic-size", "1280x720"] }

    private func claimedSession(_ c: TestClient) throws -> String {
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        return session
    }

    private func openPreview(_ c: TestClient, _ session: String, _ options: [String: BusValue] = [:])
        throws -> (reader: PreviewPipeReader, format: [String: BusValue]) {
        let reply = try c.call(session, "OpenPreview", [.vardict(options)])
        let fd = try XCTUnwrap(reply.first?.fdValue, "\(reply)")
        return (PreviewPipeReader(fd: fd), try XCTUnwrap(reply.last?.vardictValue))
    }

    func testFramesDecodeAtTheAnnouncedSizeWithIncreasingSequenceNumbers() throws {
        let c = try client()
        let session = try claimedSession(c)
        let (reader, format) = try openPreview(c, session, ["width": .uint32(400), "height": .uint32(400), "quality": .uint32(60)])
        // 1280×720 fitted into 400×400, aspect kept.
        XCTAssertEqual(format["width"]?.uint32Value, 400)
        XCTAssertEqual(format["height"]?.uint32Value, 225)
        XCTAssertEqual(format["mime"]?.stringValue, "image/jpeg")
        XCTAssertEqual(format["framing"]?.stringValue, "mjpeg")
        XCTAssertEqual(format["fps"]?.doubleValue, 30)

        let frames = try reader.frames(10)
        let sequences = frames.map(\.sequence), stamps = frames.map(\.timestampMicroseconds)
        XCTAssertEqual(sequences, sequences.sorted())
        XCTAssertEqual(Set(sequences).count, sequences.count, "\(sequences)")
        XCTAssertEqual(stamps, stamps.sorted())
        let stream = tmp.file("preview.mjpeg")
        try Data(frames.flatMap(\.jpeg)).write(to: stream)
        let probe = try runProcess(["ffprobe", "-v", "error", "-f", "mjpeg", "-count_frames", "-show_entries",
                                    "stream=codec_name,width,height,nb_read_frames", "-of", "csv=p=0", stream.path])
        XCTAssertEqual(probe.status, 0, String(decoding: probe.stderr, as: UTF8.self))
        XCTAssertEqual(String(decoding: probe.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                       "mjpeg,400,225,10")
        let decode = try runProcess(["ffmpeg", "-nostdin", "-v", "error", "-f", "mjpeg", "-i", stream.path, "-f", "null", "-"])
        XCTAssertEqual(decode.status, 0)
        XCTAssertEqual(String(decoding: decode.stderr, as: UTF8.self), "")

        XCTAssertEqual(try c.get(session, "PreviewActive").boolValue, true)
        let stats = try XCTUnwrap(try c.get(session, "PreviewStats").vardictValue)
        XCTAssertGreaterThanOrEqual(stats["frames"]?.uint64Value ?? 0, 10)
        XCTAssertNotNil(stats["dropped"]?.uint64Value)
        XCTAssertNotNil(stats["fps"]?.doubleValue)
    }

    func testTheFrameRateCapHolds() throws {
        let c = try client()
        let session = try claimedSession(c)
        let (reader, format) = try openPreview(c, session, ["fps": .double(10)])
        XCTAssertEqual(format["fps"]?.doubleValue, 10)
        // By the camera's own clock: consecutive frames at least a 10 fps interval apart, less
        // the quarter interval of slack lensd allows for jitter.
        let stamps = try reader.frames(6).map(\.timestampMicroseconds)
        for (earlier, later) in zip(stamps, stamps.dropFirst()) { XCTAssertGreaterThanOrEqual(later - earlier, 75_000, "\(stamps)") }
    }

    func testOpenPreviewNeedsTheClaimAndValidOptions() throws {
        let c = try client()
        let session = try c.openSession()
        XCTAssertThrowsError(try c.call(session, "OpenPreview", [.vardict([:])])) {
            XCTAssertEqual(($0 as? BusError)?.shortName, "NotStarted")
        }
        try c.call(session, "StartCaptureSession")
        let bad: [String: BusValue] = ["width": .uint32(8), "height": .int32(480), "fps": .double(0), "quality": .uint32(101),
                                       "size": .string("640x480")]
        // A rate below one frame a second is no preview (5e-324 was accepted, and 1e-9 sent one frame).
        let slow: [(String, BusValue)] = [5e-324, 1e-9, 0.5, -1].map { ("fps", .double($0)) }
        for (key, value) in bad.map({ ($0.key, $0.value) }) + slow {
            XCTAssertThrowsError(try c.call(session, "OpenPreview", [.vardict([key: value])]), "\(key) \(value)") {
                let error = $0 as? BusError
                XCTAssertEqual(error?.shortName, "InvalidArgument", key)
                XCTAssertTrue(error?.message.contains(key) ?? false, "\(key): \(error?.message ?? "")")
            }
        }
        XCTAssertEqual(try c.get(session, "PreviewActive").boolValue, false)
        XCTAssertEqual(try c.get(session, "PreviewStats").vardictValue?.isEmpty, true)
    }

    func testAnotherUserCannotOpenOrWatchThePreview() throws {
        let c = try client()
        let session = try claimedSession(c)
        let (reader, _) = try openPreview(c, session)
        _ = try reader.frames(1)
        let other = try peer(["preview:\(session)", "call:\(session):org.lensd.Lens1.Session:ClosePreview",
                              "get:\(session):org.lensd.Lens1.Session:PreviewStats"], as: TestUsers.member)
        XCTAssertEqual(try other.finish(), 0, "\(other.lines)")
        XCTAssertEqual(other.lines.filter { $0.hasPrefix("error ") && $0.contains("org.freedesktop.DBus.Error.UnknownObject") }.count,
                       3, "another member's session answers as a missing one: \(other.lines)")
        // The owner's stream went on.
        _ = try reader.frames(2)
    }

    func testReplaceCloseStopAndCloseEachEndTheStreamAndFreeTheDescriptor() throws {
        let c = try client()
        let session = try claimedSession(c)
        let baseline = try daemonResources().fds
        let endings: [(String, () throws -> Void)] = [
            ("ClosePreview", { try c.call(session, "ClosePreview") }),
            ("StopCaptureSession", { try c.call(session, "StopCaptureSession") }),
        ]
        for (name, end) in endings {
            try c.call(session, "StartCaptureSession")
            let (reader, _) = try openPreview(c, session)
            _ = try reader.frames(2)
            try end()
            _ = try reader.framesToEnd()
            XCTAssertTrue(reader.reachedEnd, name)
            XCTAssertEqual(try c.get(session, "PreviewActive").boolValue, false, name)
            XCTAssertEqual(try daemonResources().fds, baseline, name)
        }

        // A second OpenPreview replaces the first: the old stream ends, the new one runs.
        try c.call(session, "StartCaptureSession")
        let (first, _) = try openPreview(c, session)
        _ = try first.frames(1)
        let (second, _) = try openPreview(c, session)
        _ = try first.framesToEnd()
        XCTAssertTrue(first.reachedEnd)
        _ = try second.frames(3)
        XCTAssertEqual(try c.get(session, "PreviewActive").boolValue, true)
        XCTAssertEqual(try daemonResources().fds, baseline + 2, "the pipe's write end and the wake-up eventfd of the one stream left")

        // Close ends the session and with it the preview.
        try c.call(session, "Close")
        _ = try second.framesToEnd()
        XCTAssertTrue(second.reachedEnd)
        XCTAssertEqual(try daemonResources().fds, baseline)
    }

    func testTheOwnersDisconnectEndsTheStream() throws {
        let baseline = try daemonResources().fds
        var owner: TestClient? = try client()
        let session = try claimedSession(owner!)
        let (reader, _) = try openPreview(owner!, session)
        _ = try reader.frames(2)
        owner = nil
        _ = try reader.framesToEnd()
        XCTAssertTrue(reader.reachedEnd)
        // The session's own bookkeeping goes with the connection as well.
        try client().ping()
        XCTAssertEqual(try daemonResources().fds, baseline)
    }

    func testTheReaderClosingItsEndEndsThePreview() throws {
        let c = try client()
        let session = try claimedSession(c)
        let baseline = try daemonResources().fds
        let (reader, _) = try openPreview(c, session)
        _ = try reader.frames(1)
        reader.close()
        try c.waitForSignal("PropertiesChanged", path: session) { signal in
            signal.arguments.dropFirst().first?.vardictValue?["PreviewActive"]?.boolValue == false
        }
        XCTAssertEqual(try c.get(session, "PreviewActive").boolValue, false)
        XCTAssertEqual(try daemonResources().fds, baseline)
        // The camera is still claimed: photos work.
        try c.call(session, "BeginCapture")
        try c.waitForSignal("PhotoSigned", path: session, timeout: 60)
    }
}
