import LensBus
import XCTest

final class PropertyTests: BusTestCase {
    private func get(_ property: String) throws -> BusValue? {
        try client.call(destination: serverName, path: TestService.path, interface: "org.freedesktop.DBus.Properties",
                        member: "Get", arguments: [.string(TestService.name), .string(property)]).first?.variantValue
    }

    private func set(_ property: String, _ value: BusValue) throws {
        _ = try client.call(destination: serverName, path: TestService.path, interface: "org.freedesktop.DBus.Properties",
                            member: "Set", arguments: [.string(TestService.name), .string(property), .variant(value)])
    }

    func testGetReturnsTheObjectsValue() throws {
        XCTAssertEqual(try get("Version"), .string("1.0"))
        XCTAssertEqual(try get("Counter"), .uint32(3))
    }

    func testSetReachesTheObjectWithTheSender() throws {
        try set("Name", .string("renamed"))
        XCTAssertEqual(try get("Name"), .string("renamed"))
        XCTAssertEqual(service.state.withLock { $0.lastSetter }, client.uniqueName)
    }

    func testGetRefusedByThrowingArrivesAsThatError() throws {
        XCTAssertThrowsError(try get("Secret")) { error in
            XCTAssertEqual(error as? BusError,
                           BusError("org.lensd.Test1.Error.NotAuthorized", "Only the owner may read Secret"))
        }
    }

    func testGetRefusedWithAnInvalidErrorNameArrivesAsFailed() throws {
        XCTAssertThrowsError(try get("Misnamed")) { error in
            XCTAssertEqual(error as? BusError, BusError.failed("Not.A.Valid.1Name: refused"))
        }
        XCTAssertEqual(try get("Version"), .string("1.0"))
    }

    func testSetRefusedByThrowingArrivesAsThatError() throws {
        XCTAssertThrowsError(try set("Name", .string("forbidden"))) { error in
            XCTAssertEqual((error as? BusError)?.name, "org.lensd.Test1.Error.InvalidArgument")
        }
        XCTAssertEqual(try get("Name"), .string("initial"))
    }

    func testReadOnlyPropertyCannotBeSet() throws {
        XCTAssertThrowsError(try set("Version", .string("2.0"))) { error in
            XCTAssertEqual((error as? BusError)?.name, "org.freedesktop.DBus.Error.PropertyReadOnly")
        }
    }

    func testSetWithTheWrongTypeIsRejected() throws {
        XCTAssertThrowsError(try set("Name", .int32(1))) { error in
            XCTAssertEqual((error as? BusError)?.name, "org.freedesktop.DBus.Error.InvalidArgs")
        }
    }

    func testGetAllFailsWhenOnePropertyIsRefused() throws {
        // sd-bus asks every getter for GetAll; an owner-only property refuses the whole answer.
        XCTAssertThrowsError(try client.call(destination: serverName, path: TestService.path,
                                             interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                             arguments: [.string(TestService.name)])) { error in
            XCTAssertEqual((error as? BusError)?.name, "org.lensd.Test1.Error.NotAuthorized")
        }
    }
}
