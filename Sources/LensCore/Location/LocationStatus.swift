/// What the location source can offer right now.
public enum LocationStatus: Sendable, Equatable {
    /// No location source: policy `never`, or `--gpsd none`.
    case disabled
    /// Not connected to gpsd; the text says why and when the next attempt is, e.g.
    /// "gpsd at 127.0.0.1:2947 is not reachable (can't connect to host/port pair); retrying in 4 s".
    case connecting(String)
    /// Not connected because the system refuses lensd the connection to gpsd (EPERM, EACCES:
    /// a firewall, the unit's IPAddressDeny=, a security module) — not an absence of gpsd nor
    /// of a fix; the text says which address and when the next attempt is.
    case permissionDenied(String)
    /// Connected, but no fresh fix with a position.
    case noFix
    case fix(LocationFix)
}
