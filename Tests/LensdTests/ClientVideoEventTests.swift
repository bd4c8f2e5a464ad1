import Foundation
@testable import LensBus
@testable import LensClient
import LensSystem
import LensTestSupport
import XCTest

/// LensClient's side of video without a daemon: the six signals as sd-bus hands them over,
/// read into events and delegate calls in order, and a result copied into a file.
final class ClientVideoEventTests: XCTestCase {
    private func signal(_ member: String, _ arguments: [BusValue]) -> SignalMessage {
        SignalMessage(sender: ":1.7", path: "/org/lensd/Lens1/session/1", interface: "org.lensd.Lens1.Session",
                      member: member, arguments: arguments)
    }

    private func videoInfo(size: UInt64, duration: Double, frames: UInt32, extra: [String: BusValue] = [:]) -> BusValue {
        .vardict(["size": .uint64(size), "mime": .string("video/mp4"), "duration": .double(duration),
                  "frames": .uint32(frames)].merging(extra) { _, new in new })
    }

    func testEachVideoSignalBecomesItsEvent() throws {
        let name = UUID().uuidString.lowercased()
        let duration = Double.random(in: 0.5...90)
        let frames = UInt32.random(in: 1...3000)
        let size = UInt64.random(in: 1000...100_000_000)
        let jpeg = (0..<Int.random(in: 100...999)).map { _ in UInt8.random(in: 0...255) }

        XCTAssertEqual(LensEvent(signal("VideoRecordingStarted", [])), .videoRecordingStarted)
        XCTAssertEqual(LensEvent(signal("VideoRecordingStopped", [])), .videoRecordingStopped)
        let failed = LensEvent(signal("VideoRecordingFailed", [.string("org.lensd.Lens1.Error.CameraSessionFailed"),
                                                               .string("the camera went away")]))
        XCTAssertEqual(failed, .videoRecordingFailed(.cameraSessionFailed("the camera went away")))
        XCTAssertEqual(LensEvent(signal("VideoThumbnailGenerated", [.string(name), .byteArray(jpeg), .double(duration)])),
                       .videoThumbnailGenerated(name: name, thumbnail: Data(jpeg), duration: duration))

        guard case .videoSigned(name, let signed)? = LensEvent(signal("VideoSigned", [.string(name),
                videoInfo(size: size, duration: duration, frames: frames)])) else { return XCTFail("no VideoSigned") }
        XCTAssertEqual([signed.size, UInt64(signed.frames)], [size, UInt64(frames)])
        XCTAssertEqual(signed.duration, duration)
        XCTAssertEqual(signed.mime, "video/mp4")
        XCTAssertFalse(signed.recovered, "recovered is optional and false when absent")
        XCTAssertNil(signed.reason)

        let unsignedSignal = signal("VideoUnsigned", [.string(name), videoInfo(size: size, duration: duration, frames: frames,
            extra: ["recovered": .bool(true), "reason": .string("the device key is missing")])])
        guard case .videoUnsigned(name, let unsigned)? = LensEvent(unsignedSignal) else { return XCTFail("no VideoUnsigned") }
        XCTAssertTrue(unsigned.recovered)
        XCTAssertEqual(unsigned.reason, "the device key is missing")

        for member in ["VideoRecordingStarted", "VideoRecordingStopped", "VideoRecordingFailed", "VideoThumbnailGenerated",
                       "VideoSigned", "VideoUnsigned"] {
            let arguments: [BusValue] = switch member {
            case "VideoRecordingFailed": [.string("org.lensd.Lens1.Error.Internal"), .string("x")]
            case "VideoThumbnailGenerated": [.string(name), .byteArray(jpeg), .double(1)]
            case "VideoSigned", "VideoUnsigned": [.string(name), videoInfo(size: 1, duration: 1, frames: 1)]
            default: []
            }
            XCTAssertEqual(LensEvent(signal(member, arguments))?.signalName, member)
        }
    }

    /// A signal this client cannot read is dropped, never a crash or a half-filled event.
    func testMalformedVideoSignalsAreIgnored() {
        let name = UUID().uuidString.lowercased()
        let malformed: [(String, [BusValue])] = [
            ("VideoRecordingStarted", [.string("unexpected")]),
            ("VideoRecordingFailed", [.string("org.lensd.Lens1.Error.Internal")]),
            ("VideoRecordingFailed", [.uint32(1), .string("message")]),
            ("VideoThumbnailGenerated", [.string(name), .byteArray([0xff, 0xd8])]),
            ("VideoThumbnailGenerated", [.string(name), .byteArray([0xff, 0xd8]), .uint64(3)]),
            ("VideoSigned", [.string(name)]),
            ("VideoSigned", [.string(name), .string("not an a{sv}")]),
            ("VideoSigned", [.string(name), .vardict(["size": .uint64(1), "mime": .string("video/mp4"), "duration": .double(1)])]),
            ("VideoSigned", [.string(name), videoInfo(size: 1, duration: 1, frames: 1, extra: ["frames": .uint64(1)])]),
            ("VideoUnsigned", [.string(name), videoInfo(size: 1, duration: 1, frames: 1, extra: ["duration": .string("1 s")])]),
        ]
        for (member, arguments) in malformed {
            XCTAssertNil(LensEvent(signal(member, arguments)), "\(member)\(arguments)")
        }
    }

    func testTheDelegateGetsEveryVideoEventInOrderAndSoDoesTheStream() throws {
        let delegate = RecordingDelegate()
        let delivery = EventDelivery(delegate: delegate, queue: delegate.queue, holdingEvents: false)
        let stream = EventRecorder(delivery.events)
        let name = UUID().uuidString.lowercased()
        let duration = Double.random(in: 1...60)
        let failure = LensClientError(name: "org.lensd.Lens1.Error.CameraSessionFailed", message: "unplugged")
        let sent: [BusValue] = [videoInfo(size: 4096, duration: duration, frames: 30),
                                videoInfo(size: 4096, duration: duration, frames: 30, extra: ["reason": .string("no key")])]
        let signals = [
            signal("VideoRecordingStarted", []),
            signal("VideoRecordingFailed", [.string("org.lensd.Lens1.Error.CameraSessionFailed"), .string("unplugged")]),
            signal("VideoThumbnailGenerated", [.string(name), .byteArray([0xff, 0xd8, 0xff, 0xd9]), .double(duration)]),
            signal("VideoSigned", [.string(name), sent[0]]),
            signal("VideoUnsigned", [.string(name), sent[1]]),
            signal("VideoRecordingStopped", []),
        ]
        for signal in signals { delivery.deliver(try XCTUnwrap(LensEvent(signal))) }
        try delegate.wait(for: "the sixth call") { _ in delegate.calls.count == signals.count }

        XCTAssertEqual(delegate.calls.map(\.kind), signals.map(\.member))
        XCTAssertEqual(stream.kinds(atLeast: signals.count), signals.map(\.member))
        XCTAssertEqual(delegate.calls[1], .videoFailed(failure))
        XCTAssertEqual(delegate.calls[2], .videoThumbnail(name: name, bytes: 4, duration: duration))
        guard case .videoSigned(name, let signed) = delegate.calls[3], case .videoUnsigned(name, let unsigned) = delegate.calls[4] else {
            return XCTFail("\(delegate.calls)")
        }
        XCTAssertEqual([signed.reason, unsigned.reason], [nil, "no key"])
        XCTAssertEqual(delegate.offQueue, 0)
    }

    /// The sample app's `lensCameraVideoRecordingFailed(error:)` gets lensd's error (a fault that
    /// the synthetic camera cannot be made to have on the bus; SeedDelegateTests has the rest).
    func testTheSampleAppsDelegateHearsAFailedRecording() throws {
        let viewController = SampleCameraViewController()
        let queue = DispatchQueue(label: "sample-app")
        let delivery = EventDelivery(delegate: viewController, queue: queue, holdingEvents: false)
        for signal in [signal("VideoRecordingStarted", []), signal("VideoRecordingStopped", []),
                       signal("VideoRecordingFailed", [.string("org.lensd.Lens1.Error.CameraSessionFailed"), .string("unplugged")])] {
            delivery.deliver(try XCTUnwrap(LensEvent(signal)))
        }
        try waitUntil("three calls") { viewController.log.all.count == 3 }
        XCTAssertEqual(viewController.log.all, ["lensCameraDidStartRecordingVideo()", "lensCameraDidStopRecordingVideo()",
                                                "lensCameraVideoRecordingFailed(error: CameraSessionFailed)"])
    }

    /// ResultFile.copy between descriptors the test owns and closes itself.
    private func copy(_ source: Int32, size: UInt64, to destination: Int32, name: String) throws {
        try FileDescriptor.borrowing(source) { (from) throws in
            try FileDescriptor.borrowing(destination) { (to) throws in try ResultFile.copy(from, size: size, to: to, name: name) }
        }
    }

    /// FetchResult into a file: every byte, at the destination's offset, also where sendfile
    /// refuses the destination (O_APPEND); the source's own offset is never moved.
    func testAResultIsCopiedWholeIntoAFile() throws {
        let tmp = try TemporaryDirectory()
        // More than one pread/write piece (1 MiB each) and not a multiple of one.
        let bytes = Array(try XCTUnwrap(FileHandle(forReadingAtPath: "/dev/urandom")).readData(ofLength: (3 << 20) + 7))
        let source = tmp.file("source")
        try Data(bytes).write(to: source)
        let sourceFD = open(source.path, O_RDONLY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(sourceFD, 0)
        defer { close(sourceFD) }
        XCTAssertEqual(lseek(sourceFD, 11, SEEK_SET), 11)

        let plain = tmp.file("plain")
        let plainFD = open(plain.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        try copy(sourceFD, size: UInt64(bytes.count), to: plainFD, name: "plain")
        close(plainFD)
        XCTAssertEqual(try Data(contentsOf: plain), Data(bytes))

        let prefix = Data("already here\n".utf8)
        let appended = tmp.file("appended")
        try prefix.write(to: appended)
        let appendFD = open(appended.path, O_WRONLY | O_APPEND | O_CLOEXEC)
        try copy(sourceFD, size: UInt64(bytes.count), to: appendFD, name: "appended")
        close(appendFD)
        XCTAssertEqual(try Data(contentsOf: appended), prefix + Data(bytes))
        XCTAssertEqual(lseek(sourceFD, 0, SEEK_CUR), 11)

        // A result shorter than announced is an error, not a hang or a short file taken for whole.
        let shortFD = open(tmp.file("short").path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(shortFD) }
        XCTAssertThrowsError(try copy(sourceFD, size: UInt64(bytes.count) + 1, to: shortFD, name: "short")) {
            XCTAssertTrue(($0 as? LensClientError)?.message.contains("ends early") == true, "\($0)")
        }
    }
}
