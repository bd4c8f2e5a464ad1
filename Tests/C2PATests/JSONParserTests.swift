@testable import C2PA
@testable import C2PAEncoding
import XCTest

/// The JSON reader lensd's C2PA uses for credentials, trust lists and metadata (RFC 8259):
/// what it returns for each kind of value, and that it refuses what JSONSerialization refused.
final class JSONParserTests: XCTestCase {
    private func parse(_ text: String, fragments: Bool = false) throws -> Any {
        try JSONParser.parse(Array(text.utf8), fragments: fragments)
    }

    func testObjectsArraysAndScalarsKeepTheirKinds() throws {
        let object = try XCTUnwrap(try parse(#" { "a" : [1, -2.5e2, true, false, null, "x"], "b": {} } "#) as? [String: Any])
        let array = try XCTUnwrap(object["a"] as? [Any])
        XCTAssertEqual(array[0] as? Double, 1)
        XCTAssertEqual(array[1] as? Double, -250)
        XCTAssertEqual(array[2] as? Bool, true)
        XCTAssertNil(array[2] as? Double, "a boolean is not a number")
        XCTAssertEqual(array[3] as? Bool, false)
        XCTAssertTrue(array[4] is JSONNull)
        XCTAssertEqual(array[5] as? String, "x")
        XCTAssertEqual((object["b"] as? [String: Any])?.count, 0)
        XCTAssertEqual((try parse(#"{"k": 1, "k": 2}"#) as? [String: Any])?["k"] as? Double, 2, "the last duplicate wins")
    }

    func testEscapesAndSurrogatePairs() throws {
        let text = try XCTUnwrap(try parse(#"["\"\\\/\b\f\n\r\t \u00e9 \ud83d\ude00 é"]"#) as? [Any])[0] as? String
        XCTAssertEqual(text, "\"\\/\u{8}\u{c}\n\r\t é 😀 é")
    }

    func testFragmentsOnlyWhenAsked() throws {
        XCTAssertEqual(try parse("\"x\"", fragments: true) as? String, "x")
        XCTAssertEqual(try parse(" 0.5 ", fragments: true) as? Double, 0.5)
        XCTAssertThrowsError(try parse("\"x\""))
    }

    func testMalformedTextIsRefused() {
        for bad in ["", "[", "[1,]", "{\"a\" 1}", "{1: 2}", "[01]", "[1.]", "[1e]", "[-]", "[+1]", "[1] x", "[tru]",
                    "[\"\u{1}\"]", "[\"\\x\"]", "[\"\\ud83d\"]", "[\"\\ude00\"]", "[\"\\u12\"]", "[\"\\u+123\"]", "[1e999]",
                    "[\"open]"] {
            XCTAssertThrowsError(try parse(bad), bad)
        }
        XCTAssertThrowsError(try JSONParser.parse([0x5B, 0x22, 0xFF, 0x22, 0x5D]), "not UTF-8")
    }

    func testNestingIsBounded() throws {
        let depth = JSONParser.maximumDepth
        XCTAssertNoThrow(try parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)))
        XCTAssertThrowsError(try parse(String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)))
        // Deep and unterminated, as a fuzzer writes it: refused without recursing past the bound.
        XCTAssertThrowsError(try parse(String(repeating: "[", count: 100_000)))
    }
}
