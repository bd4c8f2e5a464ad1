/// Delays between attempts to reach gpsd (or a TSA): 0.5 s, doubling up to 8 s. A refused local
/// connect costs microseconds, so the cap is chosen for how soon a restarted service is noticed,
/// not to spare the host.
public struct ReconnectBackoff {
    private static let first = Duration.milliseconds(500)
    private static let longest = Duration.seconds(8)

    private var upcoming = first

    public init() {}

    public mutating func next() -> Duration {
        defer { upcoming = min(upcoming * 2, Self.longest) }
        return upcoming
    }

    /// After gpsd has talked to us: the next outage starts over at 0.5 s.
    public mutating func reset() {
        upcoming = Self.first
    }
}
