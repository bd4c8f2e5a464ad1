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

    /// lensd's error names are listed twice — in lensd's LensError and LensClient's
    /// LensClientError, which share no module — and once in the contract's header comment. Every
    /// name lensd can send is in the contract, and the client reads every one of them as itself.
    func testErrorNamesAgreeWithTheContract() throws {
        let xml = try String(contentsOf: TestTools.repoRoot.appendingPathComponent("dbus/org.lensd.Lens1.xml"), encoding: .utf8)
        let list = try XCTUnwrap(xml.range(of: #"org\.lensd\.Lens1\.Error\.\{[^}]*\}"#, options: .regularExpression))
        let contract = Set(xml[list].drop { $0 != "{" }.dropFirst().dropLast()
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        XCTAssertGreaterThan(contract.count, 10)

        let daemonSource = try String(contentsOf: TestTools.repoRoot.appendingPathComponent("Sources/lensd/LensError.swift"),
                                      encoding: .utf8)
        let sent = Set(daemonSource.matches(of: #/Self\.prefix \+ "(\w+)"/#).map { String($0.1) })
        XCTAssertGreaterThan(sent.count, 10)
        XCTAssertTrue(sent.isSubset(of: contract), "lensd sends names the contract lacks: \(sent.subtracting(contract))")

        for name in contract {
            let error = LensClientError(name: "org.lensd.Lens1.Error.\(name)", message: "m")
            if case .bus = error { XCTFail("LensClient does not know \(name)") }
            XCTAssertEqual(error.name, name)
        }
    }
}
