import Foundation
import LensBus
import LensTestSupport
import XCTest

/// The lensd process's descriptors through every way a preview ends, on the private system bus
/// (sd-bus carries the read end): each ending frees the pipe's write end and the wake-up eventfd.
/// The preview's flows — frames, sizes, the cap, options, who may watch, each ending's EOF and
/// signals — are PreviewFlowTests' (in process).
final class PreviewTests: LensdTestCase {
    override var daemonArguments: [String] { super.daemonArguments + ["--synthetic-size", "1280x720"] }

    private func openPreview(_ c: TestClient, _ session: String) throws -> PreviewPipeReader {
        let fd = try XCTUnwrap(try c.call(session, "OpenPreview", [.vardict([:])]).first?.fdValue)
        let reader = PreviewPipeReader(fd: fd)
        _ = try reader.frames(1)
        return reader
    }

    func testEveryWayAPreviewEndsFreesLensdsDescriptors() throws {
        let c = try client()
        let session = try c.openSession()
        let open = try daemonResources().fds
        // The reader's close first, while no earlier PreviewActive false is on its way to the client.
        for end in ["Close the read end", "ClosePreview", "StopCaptureSession"] {
            try c.call(session, "StartCaptureSession")
            let reader = try openPreview(c, session)
            if end.hasPrefix("Close the") {
                reader.close()
                try c.waitForSignal("PropertiesChanged", path: session) {
                    $0.arguments.dropFirst().first?.vardictValue?["PreviewActive"]?.boolValue == false
                }
                // Answered after the work that sent it is done: the descriptors are closed by then.
                XCTAssertEqual(try c.get(session, "PreviewActive").boolValue, false)
            } else {
                try c.call(session, end)
                _ = try reader.framesToEnd()
            }
            XCTAssertEqual(try daemonResources().fds, open, end)
        }
        // A replaced stream's descriptors go; the one left holds its two.
        try c.call(session, "StartCaptureSession")
        let first = try openPreview(c, session), second = try openPreview(c, session)
        _ = try first.framesToEnd()
        XCTAssertEqual(try daemonResources().fds, open + 2, "the pipe's write end and the wake-up eventfd of the one stream left")
        try c.call(session, "Close")
        _ = try second.framesToEnd()
        XCTAssertEqual(try daemonResources().fds, open)
        // The owner's disconnect: its stream and its session's bookkeeping go.
        var owner: TestClient? = try client()
        let next = try owner!.openSession()
        try owner!.call(next, "StartCaptureSession")
        let last = try openPreview(owner!, next)
        owner = nil
        _ = try last.framesToEnd()
        try client().ping()
        XCTAssertEqual(try daemonResources().fds, open)
    }
}
