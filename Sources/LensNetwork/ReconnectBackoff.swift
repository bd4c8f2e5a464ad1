/// Delays between attempts to reach gpsd, a TSA or an EST server: by default 0.5 s, doubling up
/// to 8 s. A refused local connect costs microseconds, so that cap is chosen for how soon a
/// restarted service is noticed, not to spare the host; a remote CA gets bounds of its own.
public struct ReconnectBackoff: Sendable {
    private let first: Duration
    private let longest: Duration
    private var upcoming: Duration

    public init(first: Duration = .milliseconds(500), longest: Duration = .seconds(8)) {
        self.first = first
        self.longest = longest
        upcoming = first
    }

    public mutating func next() -> Duration {
        defer { upcoming = min(upcoming * 2, longest) }
        return upcoming
    }

    /// After the service answered: the next outage starts over at the first wait.
    public mutating func reset() {
        upcoming = first
    }
}
