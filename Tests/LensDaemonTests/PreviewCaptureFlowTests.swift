import Foundation
import LensBus
@testable import LensDaemon
import LensTestSupport
import XCTest

/// A preview never holds capture back, in process: photos taken while a slow reader lags are all
/// Trusted, and a recording made while a preview runs keeps every frame it announces.
final class PreviewCaptureFlowTests: DaemonTestCase {
    override var arguments: [String] { ["--synthetic-size", "640x360"] }

    /// Reads one frame a second on its own thread until the stream ends; the count it got.
    private func slowReader(_ reader: PreviewPipeReader) -> () -> Int {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var count = 0
        Thread {
            while let frames = try? reader.frames(1, timeout: 30), !frames.isEmpty {
                count += frames.count
                Thread.sleep(forTimeInterval: 1)  // the slow reader under test, not a wait for anything
            }
            done.signal()
        }.start()
        return {
            done.wait()
            return count
        }
    }

    func testPhotosStayTrustedAndPromptWhileASlowReaderLags() throws {
        let c = lensd.client()
        let s = try c.claimedSession()
        let anchor = try lensd.trustAnchorFile()
        let fd = try XCTUnwrap(try c.call(s, "OpenPreview", [.vardict(["width": .uint32(320), "height": .uint32(180)])]).first?.fdValue)
        let finish = slowReader(PreviewPipeReader(fd: fd))
        for _ in 0..<3 {
            let started = Date()
            let (name, _) = try c.photo(in: s)
            // A liveness bound, generous for a loaded 2-core machine: the preview's lag is not the photo's.
            XCTAssertLessThan(Date().timeIntervalSince(started), 15)
            try ReferenceValidator.assertTrusted(try lensd.storedFile(name), anchors: [anchor])
        }
        // The three photos may take less time than the pipe needs to fill: keep the slow reader
        // reading until lensd has had to drop a frame (a liveness bound, not a timing).
        func dropped() -> UInt64 { (try? c.get(s, "PreviewStats").vardictValue?["dropped"]?.uint64Value ?? 0) ?? 0 }
        try lensd.loop.run(until: { dropped() > 0 }, "a frame dropped: a reader at 1 frame/s leaves frames behind")
        try c.call(s, "ClosePreview")
        XCTAssertGreaterThan(finish(), 0)
    }

    func testARecordingMadeDuringAPreviewIsTrustedAndKeepsItsFrames() throws {
        let c = lensd.client()
        let s = try c.openSession()
        try c.set(s, "CameraMode", .string("video"))
        try c.call(s, "StartCaptureSession")
        let fd = try XCTUnwrap(try c.call(s, "OpenPreview", [.vardict([:])]).first?.fdValue)
        let reader = PreviewPipeReader(fd: fd)
        _ = try lensd.loop.run(alongside: { try reader.frames(3) })
        try c.call(s, "StartVideoCapture")
        // The preview goes on while the recording pulls the frames.
        let during = try lensd.loop.run(alongside: { try reader.frames(30) })
        try c.call(s, "StopVideoCapture")
        let signed = try c.waitForSignal("VideoSigned", path: s, timeout: .seconds(60))
        let name = try XCTUnwrap(signed.arguments.first?.stringValue)
        let frames = try XCTUnwrap(signed.arguments.last?.vardictValue?["frames"]?.uint32Value)
        _ = try lensd.loop.run(alongside: { try reader.frames(3) })  // and after it

        let fetched = try XCTUnwrap(try c.call(s, "FetchResult", [.string(name)]).first?.fdValue)
        let video = lensd.tmp.file("\(name).mp4")
        try FileHandle(fileDescriptor: fetched, closeOnDealloc: true).readToEnd()?.write(to: video)
        let probe = try FFprobeReport.read(video)
        XCTAssertEqual(probe.frames, Int(frames))
        XCTAssertEqual(probe.decodeErrors, "")
        // The recording got every frame the camera thread pulled, the preview a share of them;
        // only the few frames the pipe held from before the start (64 KiB) are not the recording's.
        XCTAssertGreaterThanOrEqual(Int(frames), during.count - 5)
        try ReferenceValidator.assertTrusted(video, anchors: [try lensd.trustAnchorFile()])
    }
}
