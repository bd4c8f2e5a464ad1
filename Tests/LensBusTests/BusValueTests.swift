import LensBus
import XCTest

final class BusValueTests: XCTestCase {
    func testSignaturesFollowTheCase() {
        XCTAssertEqual(BusValue.vardict(["a": .bool(true)]).signature, "a{sv}")
        XCTAssertEqual(BusValue.stringArray([]).signature, "as")
        XCTAssertEqual(BusValue.bytes([1]).signature, "ay")
        XCTAssertEqual(BusValue.structure([.double(1), .double(2)]).signature, "(dd)")
        XCTAssertEqual(BusValue.array(elementSignature: "a{sv}", []).signature, "aa{sv}")
        XCTAssertEqual(BusValue.variant(.fd(3)).signature, "v")
        XCTAssertEqual(BusValue.objectPath("/").signature, "o")
        XCTAssertEqual(BusValue.uint64(1).signature, "t")
    }

    func testVardictSortsKeysAndUnwrapsVariants() {
        let value = BusValue.vardict(["zoom": .double(2), "name": .string("cam")])
        guard case .dictionary(_, _, let entries) = value else { return XCTFail("not a dictionary") }
        XCTAssertEqual(entries.map(\.key), [.string("name"), .string("zoom")])
        XCTAssertEqual(value.vardictValue, ["zoom": .double(2), "name": .string("cam")])
    }

    func testAccessorsReturnNilForOtherTypes() {
        XCTAssertNil(BusValue.int32(1).stringValue)
        XCTAssertNil(BusValue.string("1").int32Value)
        XCTAssertNil(BusValue.stringArray(["a"]).vardictValue)
        XCTAssertEqual(BusValue.stringArray(["a", "b"]).stringArrayValue, ["a", "b"])
        XCTAssertEqual(BusValue.array(elementSignature: "y", [.byte(1), .byte(2)]).bytesValue, [1, 2])
        XCTAssertEqual(BusValue.bytes([3]).arrayValue, [.byte(3)])
    }

    func testBusErrorDescription() {
        XCTAssertEqual(BusError.invalidArgs("bad").description, "org.freedesktop.DBus.Error.InvalidArgs: bad")
    }
}
