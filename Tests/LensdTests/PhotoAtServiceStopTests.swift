import Foundation
import LensBus
import LensTestSupport
import XCTest

/// SIGTERM to the lensd process: the photo under way is still stored and announced, and lensd
/// exits 0. The photo flow itself is PhotoFlowTests' (in process), settling included.
final class PhotoAtServiceStopTests: LensdTestCase {
    /// A service stop right after BeginCapture still stores the photo and announces it.
    func testAServiceStopFinishesThePhotoUnderWay() throws {
        let c = try client()
        let session = try c.openSession()
        try c.call(session, "StartCaptureSession")
        let name = try XCTUnwrap(try c.call(session, "BeginCapture").first?.stringValue)
        kill(daemon.pid, SIGTERM)
        let signed = try c.waitForSignal("PhotoSigned", path: session, timeout: 30)
        XCTAssertEqual(signed.arguments.first?.stringValue, name)
        daemon.process?.waitUntilExit()
        XCTAssertEqual(daemon.process?.terminationStatus, 0, daemon.log)
        XCTAssertTrue(storedPhotos().contains { $0.lastPathComponent == "\(name).jpg" })
    }
}
