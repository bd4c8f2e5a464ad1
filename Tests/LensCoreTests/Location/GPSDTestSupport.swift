import LensTestSupport
import Foundation
import LensCore

extension LocationFix {
    /// Whether gpsd reported exactly what the log says: coordinates to 1e-6 degree, eph to
    /// gpsd's JSON precision (3 decimals), MSL altitude to its 4 decimals (nil for 2D).
    func matches(_ position: GpsdNMEALog.Position) -> Bool {
        let altitudeMatches: Bool
        switch (altitude, position.altitudeMSL) {
        case (nil, nil): altitudeMatches = true
        case (let reported?, let logged?): altitudeMatches = abs(reported - logged) <= 1e-3
        default: altitudeMatches = false
        }
        return abs(latitude - position.latitude) <= 1e-6
            && abs(longitude - position.longitude) <= 1e-6
            && abs(horizontalAccuracy - position.eph) <= 1e-3
            && altitudeMatches
    }
}

extension LocationStatus {
    var fix: LocationFix? {
        if case .fix(let fix) = self { fix } else { nil }
    }

    var connectingReason: String? {
        if case .connecting(let reason) = self { reason } else { nil }
    }
}
