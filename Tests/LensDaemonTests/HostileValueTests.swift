import Foundation
import LensBus
import LensTestSupport
import XCTest

/// Hostile values of the right types in process: each gets its frozen D-Bus error (or, for
/// out-of-range accuracies, the frozen `false`), and lensd still answers. Wrong signatures are
/// sd-bus's to refuse and stay on the bus (HostileCallTests).
final class HostileValueTests: XCTestCase {
    private var lensd: DaemonHarness!

    override func setUpWithError() throws { lensd = try DaemonHarness() }

    override func tearDownWithError() throws {
        try lensd?.shutDown()
        lensd = nil
    }

    func testHostileValues() throws {
        let c = lensd.client()
        let session = try c.claimedSession()
        func answers() { XCTAssertNotNil(try c.managerProperty("EnrollmentState").stringValue, "lensd still answers") }
        for bad in [Double.nan, .infinity, -.infinity, 2.999, 1500.001, -3, 0] {
            XCTAssertEqual(try c.call(session, "SetMaximumLocationAccuracy", [.double(bad)]).first?.boolValue, false, "\(bad)")
            XCTAssertEqual(try c.get(session, "MaximumLocationAccuracy").doubleValue, 1500)
            answers()
        }
        let huge = String(repeating: "x", count: 4 << 20)
        let hostile: [(String, [BusValue], String)] = [
            ("SetZoomFactor", [.double(.nan)], "InvalidArgument"), ("SetZoomFactor", [.double(0.5)], "InvalidArgument"),
            ("SetZoomFactor", [.double(-.infinity)], "InvalidArgument"), ("Zoom", [.double(.infinity)], "InvalidArgument"),
            ("Zoom", [.double(0)], "InvalidArgument"), ("FocusAt", [.double(.nan), .double(0.5)], "InvalidArgument"),
            ("FocusAt", [.double(1.5), .double(0.5)], "InvalidArgument"), ("SetFlashMode", [.string("strobe")], "InvalidArgument"),
            ("SetFlashMode", [.string(huge)], "InvalidArgument"), ("FetchResult", [.string(huge)], "InvalidArgument"),
            ("ReadResult", [.string("../../identity/device.key")], "InvalidArgument"),
            ("FetchResult", [.string(UUID().uuidString.lowercased())], "NotFound"),
        ]
        for (member, arguments, error) in hostile {
            XCTAssertThrowsError(try c.call(session, member, arguments), member) { XCTAssertEqual($0.shortName, error, member) }
            answers()
        }
        for options: [String: BusValue] in [["bogus": .int32(1)], ["maximumLocationAccuracy": .string("10")],
                                             ["maximumLocationAccuracy": .double(.nan)], [huge: .bool(true)],
                                             ["persistent": .string("yes")]] {
            XCTAssertThrowsError(try c.openSession(options)) { XCTAssertEqual($0.shortName, "InvalidArgument", "\(options.keys.map(\.count))") }
            answers()
        }
    }
}
