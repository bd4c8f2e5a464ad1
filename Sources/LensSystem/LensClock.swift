import FoundationEssentials

/// Wall and monotonic time, handed to whatever ages something (certificate expiry, idle claims
/// and sessions, stale fixes), so that tests step past a deadline instead of waiting it out.
public struct LensClock: Sendable {
    /// Calendar time: certificate validity, fix times, what manifests record.
    public var wall: @Sendable () -> Date
    /// Elapsed time: timeouts and intervals, immune to the wall clock being set.
    public var monotonic: @Sendable () -> ContinuousClock.Instant

    public init(wall: @escaping @Sendable () -> Date, monotonic: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.wall = wall
        self.monotonic = monotonic
    }

    public static let system = LensClock(wall: Date.init, monotonic: { ContinuousClock.now })
}
