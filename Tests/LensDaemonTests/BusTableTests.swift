@testable import LensDaemon
import LensContract
import XCTest

/// Who may call what, read off the objects' tables: the rules the contract's header (dbus/org.lensd.Lens1.xml) states.
/// (The tables' names and signatures are compared with dbus/org.lensd.Lens1.xml by ContractTests,
/// through the running daemon's introspection.)
final class BusTableTests: XCTestCase {
    func testOnlyEnrollmentIsForRootAndEveryOtherManagerMemberForMembers() {
        let rules = Manager.table.rules
        XCTAssertEqual(Set(rules.filter { $0.value.access == .root }.keys), ["CreateCertificateRequest", "InstallCertificate"])
        XCTAssertTrue(rules.values.allSatisfy { $0.access == .member || $0.access == .root })
        XCTAssertEqual(rules.count, Manager.table.interface.methods.count)
    }

    /// What uses the camera needs the claim; what only ends something, or reads results, needs the session.
    func testWhatUsesTheCameraNeedsTheClaim() {
        let rules = Session.table.rules
        XCTAssertEqual(Set(rules.filter { $0.value.access == .claimHolder }.keys), [
            "BeginCapture", "SetFlashMode", "ToggleFlash", "ChangeCamera", "SelectCamera", "SetZoomFactor", "Zoom", "FocusAt",
            "StartVideoCapture", "OpenPreview", "StartFaceAutoCapture", "RequestFaceCapture", "RestartFaceAutoCapture",
        ])
        XCTAssertTrue(rules.values.allSatisfy { $0.access == .owner || $0.access == .claimHolder })
    }

    /// The SDK's control callbacks carry their error: exactly the controls also send Failed.
    func testTheControlsReportFailuresAsSignals() {
        XCTAssertEqual(Set(Session.table.rules.filter(\.value.reportsFailure).keys),
                       ["SetFlashMode", "ToggleFlash", "ChangeCamera", "SelectCamera", "SetZoomFactor", "Zoom", "FocusAt"])
    }

    func testEveryPropertyIsInTheInterfaceOnce() {
        for table in [Manager.table.interface, Session.table.interface] {
            XCTAssertEqual(Set(table.properties.map(\.name)).count, table.properties.count)
            XCTAssertEqual(Set(table.methods.map(\.name)).count, table.methods.count)
        }
        XCTAssertEqual(Session.table.interface.signals.map(\.name), Lens1.Signal.allCases.map(\.name))
    }
}
