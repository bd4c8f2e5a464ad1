import Foundation
@testable import LensClient
import LensContract
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

}

/// The names the XML and the Python client spell agree with LensContract, where the daemon and
/// LensClient take theirs from (no lensd needed).
final class ContractNamesTests: XCTestCase {
    /// lensd's error names are spelled once, in LensContract (Lens1.ErrorName), which the daemon
    /// and LensClient both use; the contract's header comment lists the sent names, then the
    /// reserved ones (not sent yet). The two agree both ways, and the client reads every name of
    /// the contract as itself.
    func testErrorNamesAgreeWithTheContract() throws {
        let xml = try String(contentsOf: TestTools.repoRoot.appendingPathComponent("dbus/org.lensd.Lens1.xml"), encoding: .utf8)
        let lists = xml.matches(of: #/org\.lensd\.Lens1\.Error\.\{([^}]*)\}/#).map { match in
            Set(match.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        }
        XCTAssertEqual(lists.count, 2, "the contract lists the sent names, then the reserved ones")
        XCTAssertEqual(lists.first, Set(Lens1.ErrorName.allCases.filter { !$0.isReserved }.map(\.rawValue)))
        XCTAssertEqual(lists.last, Set(Lens1.ErrorName.allCases.filter(\.isReserved).map(\.rawValue)))
        for name in Lens1.ErrorName.allCases {
            let error = LensClientError(name: name.busName, message: "m")
            if case .bus = error { XCTFail("LensClient does not know \(name)") }
            XCTAssertEqual(error.name, name.rawValue)
        }
    }

    /// The Session's signals in the XML are LensContract's table: names, types and argument names in order.
    func testSignalsAreTheContractsTable() throws {
        let signals = try Contract.shipped().members(of: Lens1.sessionInterface).filter { $0.kind == .signal }
        XCTAssertEqual(signals.map(\.name), Lens1.Signal.allCases.map(\.name))
        for (xml, signal) in zip(signals, Lens1.Signal.allCases) {
            XCTAssertEqual(xml.details, signal.arguments.map { "\($0.value) \($0.key)" }, signal.name)
        }
    }

    /// The Python client's names are the contract's: bus name, paths, interfaces and every
    /// org.lensd.Lens1.Error name it maps to an exit code.
    func testThePythonClientUsesTheContractsNames() throws {
        let python = try String(contentsOf: TestTools.repoRoot.appendingPathComponent("clients/python/lens_dbus.py"), encoding: .utf8)
        let quoted = Set(python.matches(of: #/"(org\.lensd\.[A-Za-z0-9.]+|/org/lensd/[A-Za-z0-9/]+)"/#).map { String($0.1) })
        let known = Set([Lens1.busName, Lens1.managerPath, Lens1.managerInterface, Lens1.sessionInterface]
            + Lens1.ErrorName.allCases.map(\.busName))
        XCTAssertFalse(quoted.isEmpty)
        XCTAssertTrue(quoted.isSubset(of: known), "lens_dbus.py names what the contract does not: \(quoted.subtracting(known))")
        for name in [Lens1.busName, Lens1.managerPath, Lens1.managerInterface, Lens1.sessionInterface] {
            XCTAssertTrue(quoted.contains(name), "lens_dbus.py lacks \(name)")
        }
    }
}
