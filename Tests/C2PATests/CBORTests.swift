import LensTestSupport
import XCTest
@testable import C2PA
@testable import C2PAEncoding

final class CBORTests: XCTestCase {
    /// RFC 8949 Appendix A vectors for the items C2PA uses.
    func testEncodesRFCVectors() {
        let vectors: [(CBOR, String)] = [
            (.unsigned(0), "00"), (.unsigned(23), "17"), (.unsigned(24), "1818"), (.unsigned(1000), "1903e8"),
            (.unsigned(1_000_000), "1a000f4240"), (.unsigned(1_000_000_000_000), "1b000000e8d4a51000"),
            (.int(-1), "20"), (.int(-1000), "3903e7"), (.bytes([1, 2, 3, 4]), "4401020304"),
            (.text("IETF"), "6449455446"), (.text("\u{00fc}"), "62c3bc"), (.array([.int(1), .int(2)]), "820102"),
            (.bool(false), "f4"), (.null, "f6"), (.tagged(0, .text("2013-03-21T20:04:00Z")),
             "c074323031332d30332d32315432303a30343a30305a"),
            (.double(1.5), "fa3fc00000"), (.double(1.1), "fb3ff199999999999a"),
        ]
        for (value, hex) in vectors {
            XCTAssertEqual(value.encoded().hexString, hex, "\(value)")
            XCTAssertEqual(try CBORDecoder.decode(value.encoded()), value)
        }
    }

    func testMapKeysAreSortedByEncodedBytes() {
        let map = CBOR.textMap([("when", .int(1)), ("a", .int(2)), ("action", .int(3)), ("b", .int(4))])
        // Shorter encodings first, then bytewise: "a", "b", "when", "action".
        XCTAssertEqual(map.encoded().hexString, "a461610261620464776865 6e01 66616374696f6e03".replacingOccurrences(of: " ", with: ""))
    }

    func testDecodesHalfFloats() throws {
        XCTAssertEqual(try CBORDecoder.decode([0xf9, 0x3c, 0x00]), .double(1.0))
        XCTAssertEqual(try CBORDecoder.decode([0xf9, 0x7c, 0x00]), .double(.infinity))
        XCTAssertEqual(try CBORDecoder.decode([0xf9, 0x00, 0x01]), .double(5.960464477539063e-08))
    }

    func testRejectsHostileInput() {
        let hostile: [[UInt8]] = [
            [],                                   // nothing
            [0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],  // 2^64-1 byte string
            [0x9b, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00], // 2^32 items, no bytes
            [0x62, 0xff, 0xfe],                  // text that is not UTF-8
            [0x5f, 0x41, 0x00],                  // indefinite byte string without its break
            [0x5f, 0x61, 0x00, 0xff],            // byte string chunk that is text
            [0x7f, 0x41, 0x00, 0xff],            // text chunk that is bytes
            [0xbf, 0x01, 0xff],                  // indefinite map: a key without a value
            [0x1f],                              // an integer cannot be indefinite
            [0xdf, 0x00],                        // nor a tag
            [0xff],                              // a break outside any indefinite item
            [0x9f, 0x9f, 0xff],                  // inner array closed, outer not
            Array(repeating: 0x9f, count: 1000), // indefinite nesting deeper than the limit
            [0x1c],                              // reserved additional info
            [0x01, 0x02],                        // trailing byte
            Array(repeating: 0x81, count: 1000) + [0x00],  // nesting deeper than the limit
        ]
        for bytes in hostile {
            XCTAssertThrowsError(try CBORDecoder.decode(bytes), "\(bytes.prefix(9).hexString)")
        }
    }

    /// Older c2pa-rs wrote claim_generator_info as an indefinite-length map; readers must accept it.
    func testDecodesIndefiniteLengths() throws {
        XCTAssertEqual(try CBORDecoder.decode([0x5f, 0x41, 0x01, 0x42, 0x02, 0x03, 0xff]), .bytes([1, 2, 3]))
        XCTAssertEqual(try CBORDecoder.decode([0x7f, 0x61, 0x61, 0x62, 0x62, 0x63, 0xff]), .text("abc"))
        XCTAssertEqual(try CBORDecoder.decode([0x9f, 0x01, 0x9f, 0xff, 0xff]), .array([.unsigned(1), .array([])]))
        let map = try CBORDecoder.decode([0xbf, 0x61, 0x7a, 0x01, 0x61, 0x61, 0xf6, 0xff])
        XCTAssertEqual(map.mapPairs?.map(\.key), [.text("z"), .text("a")])
        XCTAssertEqual(map["z"], .unsigned(1))
        XCTAssertNil(map["a"], "an explicit null reads as absent")
    }

    func testMapKeepsWireOrderWhenDecoded() throws {
        // c2pa-rs writes claims in struct order, not sorted; decoding must not reorder them.
        let unsorted: [UInt8] = [0xa2, 0x61, 0x7a, 0x01, 0x61, 0x61, 0x02]
        XCTAssertEqual(try CBORDecoder.decode(unsorted).mapPairs?.map(\.key), [.text("z"), .text("a")])
    }
}
