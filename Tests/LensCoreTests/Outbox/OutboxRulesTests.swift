import Foundation
import Glibc
@testable import LensCore
@testable import LensNetwork
import XCTest

/// The outbox's rules that need no server: which answers are final, how long to wait, which URLs
/// and credential files are acceptable.
final class OutboxRulesTests: XCTestCase {
    func testStatusesAreDeliveredTransientOrPermanentAsTheIssueSays() {
        func verdict(_ status: Int, retryAfter: Int? = nil) -> UploadVerdict {
            UploadVerdict.of(HTTPUpload.Response(status: status, retryAfter: retryAfter))
        }
        XCTAssertEqual(verdict(201), .delivered(status: 201))
        XCTAssertEqual(verdict(204), .delivered(status: 204))
        for status in [500, 502, 503, 408] {
            guard case .transient = verdict(status) else { return XCTFail("\(status) must be retried") }
        }
        XCTAssertEqual(verdict(429, retryAfter: 7), .transient("the server answered HTTP 429", retryAfter: 7))
        XCTAssertEqual(verdict(503, retryAfter: 3), .transient("the server answered HTTP 503", retryAfter: 3))
        // Retry-After only counts where RFC 9110 gives it that meaning for us: 429 and 503.
        XCTAssertEqual(verdict(500, retryAfter: 3), .transient("the server answered HTTP 500", retryAfter: nil))
        guard case .permanent(UploadError.tooLarge, _) = verdict(413) else { return XCTFail("413 is too_large") }
        for status in [400, 401, 403, 404, 409, 301, 302] {
            guard case .permanent(UploadError.rejected, _) = verdict(status) else { return XCTFail("\(status) is permanent") }
        }
    }

    func testBackoffDoublesUpToTheCapAndRetryAfterReplacesIt() {
        let delays = (1...8).map { UploadBackoff.delay(afterFailures: $0, first: 2, cap: 60, retryAfter: nil) }
        XCTAssertEqual(delays, [2, 4, 8, 16, 32, 60, 60, 60])
        XCTAssertEqual(UploadBackoff.delay(afterFailures: 1_000, first: 2, cap: 3600, retryAfter: nil), 3600)
        XCTAssertEqual(UploadBackoff.delay(afterFailures: 1, first: 2, cap: 60, retryAfter: 30), 30)
        XCTAssertEqual(UploadBackoff.delay(afterFailures: 1, first: 2, cap: 60, retryAfter: 7200), 60)
    }

    func testURLTemplatesNeedHTTPAHostAndTheName() throws {
        XCTAssertNoThrow(try UploadURL.validate("https://evidence.example.org/dav/{name}.{ext}"))
        XCTAssertNoThrow(try UploadURL.validate("http://127.0.0.1:8080/{name}"))
        for bad in ["ftp://host/{name}", "https:///{name}", "https://host/fixed.jpg", "https://host/a b/{name}", "{name}"] {
            XCTAssertThrowsError(try UploadURL.validate(bad), bad)
        }
        XCTAssertEqual(UploadURL.expand("https://h/dav/{name}.{ext}", name: "N", fileExtension: "mp4"), "https://h/dav/N.mp4")
    }

    func testCredentialFilesAreBearerOrBasicAndOnlyTrustedWhenRootOwned() throws {
        let dir = try StorageTestSupport.makeScratchDirectory("auth")
        defer { try? FileManager.default.removeItem(at: dir) }
        func file(_ text: String, mode: Int = 0o640) throws -> String {
            let path = dir.appendingPathComponent(UUID().uuidString).path
            FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
            return path
        }
        XCTAssertEqual(try UploadCredential.authorization(fromFile: try file("s3cr3t-token\n")), "Bearer s3cr3t-token")
        XCTAssertEqual(try UploadCredential.authorization(fromFile: try file("camera:pa ss\n")),
                       "Basic " + Data("camera:pa ss".utf8).base64EncodedString())
        XCTAssertThrowsError(try UploadCredential.authorization(fromFile: try file("token", mode: 0o660))) {
            XCTAssertTrue("\($0)".contains("writable only by root"), "\($0)")
        }
        let foreign = try file("token")
        XCTAssertEqual(chown(foreign, 65534, 65534), 0)
        XCTAssertThrowsError(try UploadCredential.authorization(fromFile: foreign)) {
            XCTAssertTrue("\($0)".contains("owned by root"), "\($0)")
        }
        XCTAssertThrowsError(try UploadCredential.authorization(fromFile: try file("two\nlines\n")))
        XCTAssertThrowsError(try UploadCredential.authorization(fromFile: try file("\n")))
        XCTAssertThrowsError(try UploadCredential.authorization(fromFile: dir.appendingPathComponent("missing").path)) {
            XCTAssertTrue("\($0)".contains("No such file"), "\($0)")
        }
    }
}
