import LensCore
import LensIdentity
import XCTest

/// The `key = pkcs11:…` URIs lensd accepts (RFC 7512), and the sentence for each it refuses.
final class PKCS11URITests: XCTestCase {
    func testTokenAndObjectArePercentDecoded() throws {
        XCTAssertEqual(try PKCS11URI(parsing: "pkcs11:token=lensd;object=device"), PKCS11URI(token: "lensd", object: "device"))
        XCTAssertEqual(try PKCS11URI(parsing: "pkcs11:object=my%20key;type=private;token=News%3BCams"),
                       PKCS11URI(token: "News;Cams", object: "my key"))
    }

    func testRefusalsSayWhatIsWrong() {
        let cases = [
            ("pkcs11:token=lensd", "must name both token and object"),
            ("pkcs11:token=lensd;object=device?pin-value=1234", "set pkcs11-module and pkcs11-pin-file instead"),
            ("pkcs11:token=lensd;object=device;slot-id=3", "attribute slot-id is not supported"),
            ("pkcs11:token=lensd;object=device;type=cert", "type=cert is not a private key"),
            ("pkcs11:token=lensd;object=%zz", "%XX escapes"),
            ("/etc/lensd/device.key", "is not a pkcs11: URI"),
        ]
        for (uri, reason) in cases {
            XCTAssertThrowsError(try PKCS11URI(parsing: uri), uri) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(uri): \(error)")
            }
        }
    }
}
