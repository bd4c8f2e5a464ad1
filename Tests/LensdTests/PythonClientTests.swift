import Foundation
import LensTestSupport
import XCTest

/// clients/python/lens_capture.py: jeepney in the project venv captures, receives the memfd
/// from FetchResult, and writes a photo that the reference implementation trusts.
final class PythonClientTests: LensdTestCase {
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
}
