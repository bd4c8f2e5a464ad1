import FoundationEssentials

/// What PreviewStats reports: frames written whole, frames dropped (the reader was behind or the
/// encoder still busy), and the rate frames were written at.
public struct PreviewStats: Sendable, Equatable {
    public var frames: UInt64 = 0
    public var dropped: UInt64 = 0
    /// Frames per second between the first and the last frame written; 0 before the second.
    public var fps: Double = 0
}

/// The counters behind PreviewStats, bumped on the preview's thread, read on the bus thread.
struct PreviewCounters {
    private(set) var stats = PreviewStats()
    private var firstWrite: ContinuousClock.Instant?

    mutating func written(at now: ContinuousClock.Instant = .now) {
        stats.frames += 1
        guard let firstWrite else {
            firstWrite = now
            return
        }
        let elapsed = (now - firstWrite).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        if seconds > 0 { stats.fps = Double(stats.frames - 1) / seconds }
    }

    mutating func dropped() {
        stats.dropped += 1
    }
}
