import LensTestSupport
import XCTest
@testable import C2PA
@testable import C2PAEncoding

final class JUMBFTests: XCTestCase {
    func testDescriptionBoxMatchesTheSpecLayout() {
        // The manifest store's description box as the C2PA specification lays it out (JUMBF, ISO 19566-5).
        let store = JUMBFSuperbox(description: JUMBFDescription(type: .manifestStore, label: "c2pa"), children: [])
        XCTAssertEqual(store.encoded.hexString,
                       "00000026" + "6a756d62" + "0000001e" + "6a756d64" + "63327061" + "00110010800000aa00389b71"
                       + "03" + "6332706100")
    }

    func testRoundTripKeepsLabelsSaltsAndContent() throws {
        let salt = [UInt8](repeating: 7, count: 16)
        let assertion = JUMBFSuperbox(description: JUMBFDescription(type: .cbor, label: "c2pa.actions.v2", salt: salt),
                                      children: [.content(type: "cbor", payload: [0xa0])])
        let store = JUMBFSuperbox(description: JUMBFDescription(type: .manifestStore, label: "c2pa"),
                                  children: [.superbox(assertion)])
        let parsed = try JUMBFParser.parseSuperbox(store.encoded)
        XCTAssertEqual(parsed, store)
        XCTAssertEqual(parsed.child(labeled: "c2pa.actions.v2")?.description.salt, salt)
        XCTAssertEqual(parsed.child(labeled: "c2pa.actions.v2")?.content("cbor"), [0xa0])
    }

    func testRejectsBoxesThatDoNotFit() {
        let valid = JUMBFSuperbox(description: JUMBFDescription(type: .manifestStore, label: "c2pa"), children: []).encoded
        var oversized = valid
        oversized[3] = 0xff
        var undersized = valid
        undersized[3] = 4
        var unterminatedLabel = valid
        unterminatedLabel[unterminatedLabel.count - 1] = 0x41
        for bytes in [oversized, undersized, unterminatedLabel, Array(valid.prefix(20)), valid + [0]] {
            XCTAssertThrowsError(try JUMBFParser.parseSuperbox(bytes))
        }
    }
}
