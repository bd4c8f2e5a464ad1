import LensCore

/// Logs the location source's changes once each (gpsd reached or lost, a fix gained or lost),
/// not every report: gpsd sends several a second.
struct LocationLog {
    private enum Phase: Equatable { case none, unreachable, noFix, fix }
    private var phase = Phase.none

    mutating func note(_ status: LocationStatus) {
        let now: Phase
        switch status {
        case .disabled: now = .none
        case .connecting, .permissionDenied: now = .unreachable
        case .noFix: now = .noFix
        case .fix: now = .fix
        }
        guard now != phase else { return }
        defer { phase = now }
        switch status {
        case .disabled: break
        case .connecting(let why), .permissionDenied(let why): Log.warning("location: \(why)")
        case .noFix: Log.info(phase == .fix ? "location: fix lost" : "location: connected to gpsd, no fix yet")
        case .fix(let fix):
            if phase == .unreachable || phase == .none { Log.info("location: connected to gpsd") }
            Log.info("location: fix (\(fix.mode.rawValue), ± \(Int(fix.horizontalAccuracy.rounded())) m)")
        }
    }
}
