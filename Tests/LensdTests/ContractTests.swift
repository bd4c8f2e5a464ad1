import Foundation
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
}
