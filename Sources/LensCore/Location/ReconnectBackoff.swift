/// Delays between attempts to reach gpsd: 0.5 s, doubling up to 8 s. A refused local connect
/// costs microseconds, so the cap is chosen for how soon a restarted gpsd is noticed, not to
/// spare the host.
struct ReconnectBackoff {
    private static let first = Duration.milliseconds(500)
    private static let longest = Duration.seconds(8)

    private var upcoming = first

    mutating func next() -> Duration {
        defer { upcoming = min(upcoming * 2, Self.longest) }
        return upcoming
    }

    /// After gpsd has talked to us: the next outage starts over at 0.5 s.
    mutating func reset() {
        upcoming = Self.first
    }
}
