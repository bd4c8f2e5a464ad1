import Foundation
import LensBus
import LensClient
import LensContract
@testable import LensDaemon
import LensTestSupport
import XCTest

/// The live preview in process, on the synthetic camera (1280×720 at 30 fps): frames FFmpeg
/// decodes at the size lensd announced, who may open one, and every way it ends — each closing
/// the stream (EOF) and freeing the daemon's descriptors. The pipe is read on a thread of its own
/// while the test runs the loop, as a client's would be.
final class PreviewFlowTests: DaemonTestCase {
    override var arguments: [String] { ["--synthetic-size", "1280x720"] }

    private func openPreview(_ c: HarnessClient, _ session: String, _ options: [String: BusValue] = [:])
        throws -> (reader: PreviewPipeReader, format: [String: BusValue]) {
        let reply = try c.call(session, "OpenPreview", [.vardict(options)])
        let fd = try XCTUnwrap(reply.first?.fdValue, "\(reply)")
        return (PreviewPipeReader(fd: fd), try XCTUnwrap(reply.last?.vardictValue))
    }

    /// The next `count` frames, read while the loop runs.
    private func frames(_ reader: PreviewPipeReader, _ count: Int) throws -> [LensPreviewFrame] {
        try lensd.loop.run(alongside: { try reader.frames(count) })
    }

    /// The rest of the stream, which must end.
    private func toTheEnd(_ reader: PreviewPipeReader) throws {
        _ = try lensd.loop.run(alongside: { try reader.framesToEnd() })
        XCTAssertTrue(reader.reachedEnd)
    }

    func testFramesDecodeAtTheAnnouncedSizeWithIncreasingSequenceNumbers() throws {
        let c = lensd.client()
        let session = try c.claimedSession()
        let (reader, format) = try openPreview(c, session, ["width": .uint32(400), "height": .uint32(400), "quality": .uint32(60)])
        // 1280×720 fitted into 400×400, aspect kept.
        XCTAssertEqual(format["width"]?.uint32Value, 400)
        XCTAssertEqual(format["height"]?.uint32Value, 225)
        XCTAssertEqual(format["mime"]?.stringValue, "image/jpeg")
        XCTAssertEqual(format["framing"]?.stringValue, "mjpeg")
        XCTAssertEqual(format["fps"]?.doubleValue, 30)

        let frames = try frames(reader, 10)
        let sequences = frames.map(\.sequence), stamps = frames.map(\.timestampMicroseconds)
        XCTAssertEqual(sequences, sequences.sorted())
        XCTAssertEqual(Set(sequences).count, sequences.count, "\(sequences)")
        XCTAssertEqual(stamps, stamps.sorted())
        let stream = lensd.tmp.file("preview.mjpeg")
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
        let c = lensd.client()
        let session = try c.claimedSession()
        let (reader, format) = try openPreview(c, session, ["fps": .double(10)])
        XCTAssertEqual(format["fps"]?.doubleValue, 10)
        // By the camera's own clock: consecutive frames at least a 10 fps interval apart, less
        // the quarter interval of slack lensd allows for jitter.
        let stamps = try frames(reader, 6).map(\.timestampMicroseconds)
        for (earlier, later) in zip(stamps, stamps.dropFirst()) { XCTAssertGreaterThanOrEqual(later - earlier, 75_000, "\(stamps)") }
    }

    func testOpenPreviewNeedsTheClaimAndValidOptions() throws {
        let c = lensd.client()
        let session = try c.openSession()
        XCTAssertThrowsError(try c.call(session, "OpenPreview", [.vardict([:])])) { XCTAssertEqual($0.shortName, "NotStarted") }
        try c.call(session, "StartCaptureSession")
        let bad: [String: BusValue] = ["width": .uint32(8), "height": .int32(480), "fps": .double(0), "quality": .uint32(101),
                                       "size": .string("640x480")]
        // A rate below one frame a second is no preview (5e-324 was accepted, and 1e-9 sent one frame).
        let slow: [(String, BusValue)] = [.leastNonzeroMagnitude, 1e-9, 0.5, -1].map { ("fps", .double($0)) }
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
        try TestUsers.ensure()
        let c = lensd.client()
        let session = try c.claimedSession()
        let (reader, _) = try openPreview(c, session)
        _ = try frames(reader, 1)
        let other = lensd.client(uid: try TestUsers.uid(TestUsers.member))
        XCTAssertThrowsError(try other.call(session, "OpenPreview", [.vardict([:])])) { XCTAssertEqual($0.shortName, "org.freedesktop.DBus.Error.UnknownObject", "as a missing session") }
        XCTAssertThrowsError(try other.call(session, "ClosePreview")) { XCTAssertEqual($0.shortName, "org.freedesktop.DBus.Error.UnknownObject", "as a missing session") }
        XCTAssertThrowsError(try other.get(session, "PreviewStats")) { XCTAssertEqual($0.shortName, "org.freedesktop.DBus.Error.UnknownObject", "as a missing session") }
        // The owner's stream went on.
        _ = try frames(reader, 2)
    }

    /// The daemon's descriptors are counted in the test's process, after the test has closed its
    /// own read end.
    func testReplaceCloseStopAndCloseEachEndTheStreamAndFreeTheDescriptor() throws {
        let c = lensd.client()
        let session = try c.claimedSession()
        let baseline = try openDescriptors()
        let endings: [(String, () throws -> Void)] = [
            ("ClosePreview", { try c.call(session, "ClosePreview") }),
            ("StopCaptureSession", { try c.call(session, "StopCaptureSession") }),
        ]
        for (name, end) in endings {
            try c.call(session, "StartCaptureSession")
            let (reader, _) = try openPreview(c, session)
            _ = try frames(reader, 2)
            try end()
            try toTheEnd(reader)
            XCTAssertEqual(try c.get(session, "PreviewActive").boolValue, false, name)
            reader.close()
            XCTAssertEqual(try openDescriptors(), baseline, name)
        }

        // A second OpenPreview replaces the first: the old stream ends, the new one runs.
        try c.call(session, "StartCaptureSession")
        let (first, _) = try openPreview(c, session)
        _ = try frames(first, 1)
        let (second, _) = try openPreview(c, session)
        try toTheEnd(first)
        first.close()
        _ = try frames(second, 3)
        XCTAssertEqual(try c.get(session, "PreviewActive").boolValue, true)
        XCTAssertEqual(try openDescriptors(), baseline + 3,
                       "the pipe's write end and the wake-up eventfd of the one stream left, and the test's read end")

        // Close ends the session and with it the preview.
        try c.call(session, "Close")
        try toTheEnd(second)
        second.close()
        XCTAssertEqual(try openDescriptors(), baseline)
    }

    func testTheOwnersDisconnectEndsTheStream() throws {
        let baseline = try openDescriptors()
        let owner = lensd.client()
        let session = try owner.claimedSession()
        let (reader, _) = try openPreview(owner, session)
        _ = try frames(reader, 2)
        owner.disconnect()
        try toTheEnd(reader)
        reader.close()
        // The session's own bookkeeping goes with the connection as well.
        XCTAssertEqual(lensd.bus.exportedPaths, [Lens1.managerPath])
        XCTAssertEqual(try openDescriptors(), baseline)
    }

    func testTheReaderClosingItsEndEndsThePreview() throws {
        let c = lensd.client()
        let session = try c.claimedSession()
        let baseline = try openDescriptors()
        let (reader, _) = try openPreview(c, session)
        _ = try frames(reader, 1)
        reader.close()
        try c.waitForSignal("PropertiesChanged", path: session) { signal in
            signal.arguments.dropFirst().first?.vardictValue?["PreviewActive"]?.boolValue == false
        }
        XCTAssertEqual(try c.get(session, "PreviewActive").boolValue, false)
        XCTAssertEqual(try openDescriptors(), baseline)
        // The camera is still claimed: photos work.
        _ = try c.photo(in: session)
    }
}
