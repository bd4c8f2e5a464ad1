import Foundation
import LensCore
@testable import LensDaemon
import LensTestSupport

/// A location source the test feeds, where lensd has gpsd (a stand-in: the real gpsd, fed from the
/// same NMEA logs, is LocationGateTests' on the bus). It reports what it is told, as the provider
/// does: every new reading is a change. Loop thread only.
final class FedLocationSource: LocationSource {
    private(set) var status = LocationStatus.disabled
    var onChange: ((LocationStatus) -> Void)?

    var currentFix: LocationFix? {
        guard case .fix(let fix) = status else { return nil }
        return fix
    }

    /// Connected, no fix yet: as gpsd is before the receiver's first position.
    func start() { report(.noFix) }
    func stop() { status = .disabled }

    func report(_ new: LocationStatus) {
        status = new
        onChange?(new)
    }

    /// A fix at `position` (an NMEA log's GGA, with the eph gpsd derives from its HDOP), taken and
    /// received at `time`.
    func report(_ position: GpsdNMEALog.Position, at time: Date) {
        report(.fix(LocationFix(latitude: position.latitude, longitude: position.longitude, altitude: position.altitudeMSL,
                                horizontalAccuracy: position.eph, mode: position.altitudeMSL == nil ? .twoD : .threeD,
                                fixTime: time, receivedAt: time)))
    }
}
