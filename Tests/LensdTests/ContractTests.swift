import Foundation
@testable import LensClient
import LensTestSupport
import XCTest

/// The daemon's introspection equals dbus/org.lensd.Lens1.xml, member by member: the XML is the
/// contract clients are written against.
final class ContractTests: LensdTestCase {
    func testIntrospectionEqualsTheContract() throws {
        let c = try client()
        let session = try c.openSession()
        var live: [Contract.Member] = []
        for path in [TestClient.managerPath, session] {
            let xml = try XCTUnwrap(try c.call(path, "Introspect", interface: "org.freedesktop.DBus.Introspectable").first?.stringValue)
            live += try Contract(xml: Data(xml.utf8)).members.filter { $0.interface.hasPrefix("org.lensd.") }
        }
        let contract = try Contract.shipped().members
        XCTAssertEqual(live.count, contract.count)
        for (mine, theirs) in zip(live, contract) { XCTAssertEqual(mine, theirs) }
    }

    /// Every member of the contract is described in the comment before it, which names it and
    /// each of its arguments (`@name:`), as gdbus-codegen reads documentation.
    func testEveryMemberAndArgumentIsDocumented() throws {
        let contract = try Contract.shipped()
        XCTAssertGreaterThan(contract.members.count, 40)
        for member in contract.members {
            let key = "\(member.interface).\(member.name)"
            guard let text = contract.documentation[key] else {
                XCTFail("\(key) has no comment before it")
                continue
            }
            XCTAssertTrue(text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("\(member.name):"),
                          "\(key): the comment should start with \"\(member.name):\"")
            let described = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("@") && !$0.hasPrefix("\(member.name):") }
            XCTAssertFalse(described.isEmpty, "\(key) has no description")
            let arguments = Set(member.details.compactMap { $0.split(separator: " ").last.map(String.init) })
            for argument in arguments where member.kind != .property {
                XCTAssertTrue(text.contains("@\(argument):"), "\(key): argument \(argument) is not described")
            }
        }
    }

    /// lensd's error names are listed in lensd's LensError, in LensClient's LensClientError (the
    /// two share no module) and in the contract's header comment, which also lists the reserved
    /// ones (not sent yet). The three agree both ways: the contract's sent names are exactly
    /// those lensd can send, its reserved ones none of them, and the client knows exactly the
    /// contract's names, each read as itself.
    func testErrorNamesAgreeWithTheContract() throws {
        let xml = try String(contentsOf: TestTools.repoRoot.appendingPathComponent("dbus/org.lensd.Lens1.xml"), encoding: .utf8)
        let lists = xml.matches(of: #/org\.lensd\.Lens1\.Error\.\{([^}]*)\}/#).map { match in
            Set(match.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        }
        XCTAssertEqual(lists.count, 2, "the contract lists the sent names, then the reserved ones")
        let (contractSent, reserved) = (lists[0], lists[1])
        XCTAssertGreaterThan(contractSent.count, 10)
        XCTAssertTrue(contractSent.isDisjoint(with: reserved), "\(contractSent.intersection(reserved))")

        let daemonSource = try String(contentsOf: TestTools.repoRoot.appendingPathComponent("Sources/LensDaemon/LensError.swift"),
                                      encoding: .utf8)
        let sent = Set(daemonSource.matches(of: #/Self\.prefix \+ "(\w+)"/#).map { String($0.1) })
        XCTAssertEqual(sent, contractSent, "lensd sends \(sent.subtracting(contractSent)) the contract lacks; "
            + "the contract lists \(contractSent.subtracting(sent)) lensd never sends (reserve them)")

        let contract = contractSent.union(reserved)
        XCTAssertEqual(Set(LensClientError.lensErrorNames), contract)
        for name in contract {
            let error = LensClientError(name: "org.lensd.Lens1.Error.\(name)", message: "m")
            if case .bus = error { XCTFail("LensClient does not know \(name)") }
            XCTAssertEqual(error.name, name)
        }
    }
}
