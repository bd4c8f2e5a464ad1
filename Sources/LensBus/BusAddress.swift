/// Which bus a BusConnection talks to.
public enum BusAddress: Sendable {
    case system
    case session
    /// A D-Bus address such as "unix:path=/tmp/x/bus" (a private bus in tests).
    case address(String)
}
