import LensBus
import XCTest

final class MethodCallTests: BusTestCase {
    func testSynchronousCallReturnsTheReply() throws {
        XCTAssertEqual(try callService("Echo", [.string("hello")]), [.string("hello")])
        XCTAssertEqual(try callService("Add", [.int32(40), .int32(2)]), [.int32(42)])
    }

    func testAsynchronousCallDeliversTheReplyOnTheLoop() throws {
        var result: Result<[BusValue], BusError>?
        try client.callAsync(destination: serverName, path: TestService.path, interface: TestService.name,
                             member: "Add", arguments: [.int32(1), .int32(2)]) { result = $0 }
        XCTAssertTrue(try pump(clientLoop) { result != nil })
        XCTAssertEqual(try result?.get(), [.int32(3)])
    }

    func testAsynchronousErrorReplyArrivesAsFailure() throws {
        var result: Result<[BusValue], BusError>?
        try client.callAsync(destination: serverName, path: TestService.path, interface: TestService.name,
                             member: "Refuse") { result = $0 }
        XCTAssertTrue(try pump(clientLoop) { result != nil })
        XCTAssertEqual(result, .failure(BusError("org.lensd.Test1.Error.Busy", "The camera is held by uid 1000")))
    }

    func testWrongSignatureIsRejectedWithInvalidArgsBeforeTheHandler() throws {
        XCTAssertThrowsError(try callService("Add", [.string("forty"), .int32(2)])) { error in
            XCTAssertEqual((error as? BusError)?.name, "org.freedesktop.DBus.Error.InvalidArgs")
        }
    }

    func testHandlerErrorArrivesWithItsNameAndMessage() throws {
        XCTAssertThrowsError(try callService("Refuse")) { error in
            XCTAssertEqual(error as? BusError, BusError("org.lensd.Test1.Error.Busy", "The camera is held by uid 1000"))
        }
    }

    func testDeferredReplyAnsweredFromAWorkerThread() throws {
        XCTAssertEqual(try callService("Later", [.string("after a while")]), [.string("after a while")])
    }

    func testDroppedDeferredReplyAnswersNoReply() throws {
        XCTAssertThrowsError(try callService("Drop")) { error in
            XCTAssertEqual((error as? BusError)?.name, "org.freedesktop.DBus.Error.NoReply")
        }
    }

    func testReplyNotMatchingTheDeclaredSignatureBecomesAnError() throws {
        XCTAssertThrowsError(try callService("WrongReply")) { error in
            XCTAssertEqual((error as? BusError)?.name, "org.freedesktop.DBus.Error.Failed")
            XCTAssertTrue((error as? BusError)?.message.contains("'i'") ?? false)
        }
    }

    func testUnknownMethodIsReportedBySdBus() throws {
        XCTAssertThrowsError(try callService("NoSuchMethod")) { error in
            XCTAssertEqual((error as? BusError)?.name, "org.freedesktop.DBus.Error.UnknownMethod")
        }
    }

    func testNestedValuesSurviveARoundTrip() throws {
        let value: BusValue = .variant(.structure([
            .vardict(["position": .string("back"), "zoom": .double(2.5), "flags": .stringArray(["a", "b"])]),
            .array(elementSignature: "(nq)", [.structure([.int16(-3), .uint16(9)])]),
            .dictionary(keySignature: "u", valueSignature: "ay",
                        [DictEntry(key: .uint32(1), value: .bytes([0, 1, 255]))]),
            .objectPath("/org/lensd/Lens1/session/1"),
            .signature("a{sv}"),
            .variant(.variant(.byte(7))),
            .int64(-1), .uint64(.max), .bool(false),
        ]))
        XCTAssertEqual(try callService("Mirror", [value]), [value])
    }

    func testLargeByteArrayRoundTrip() throws {
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        XCTAssertEqual(try callService("Mirror", [.variant(.bytes(bytes))]), [.variant(.bytes(bytes))])
    }

    func testCallToAMissingPeerFails() throws {
        XCTAssertThrowsError(try client.call(destination: ":1.9999", path: "/", interface: "a.b", member: "C")) { error in
            XCTAssertEqual((error as? BusError)?.name, "org.freedesktop.DBus.Error.ServiceUnknown")
        }
    }

    func testRequestNameOwnsTheNameAndRefusesASecondOwner() throws {
        try client.requestName("org.lensd.TestName")
        try client.requestName("org.lensd.TestName")  // already ours: fine
        let (_, other) = try makeClient("other")
        XCTAssertThrowsError(try other.requestName("org.lensd.TestName")) { error in
            XCTAssertEqual((error as? BusError)?.name, "org.freedesktop.DBus.Error.FileExists")
        }
        XCTAssertEqual(try other.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                      interface: "org.freedesktop.DBus", member: "GetNameOwner",
                                      arguments: [.string("org.lensd.TestName")]),
                       [.string(client.uniqueName)])
    }
}
