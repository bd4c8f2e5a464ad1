/// Zoom(scale) as a pinch gesture reports it: each update's scale is cumulative from the
/// gesture's start, so the factor is the one at the start times the scale — forwarding every
/// update must not compound. A gesture ends after `idleGap` without an update, or when the
/// factor is set absolutely (SetZoomFactor) or the camera changes; the next update starts anew
/// from the factor then in effect.
public struct PinchGesture: Sendable {
    public static let idleGap: Duration = .milliseconds(300)
    private var startFactor: Double?
    private var lastUpdate: ContinuousClock.Instant?

    public init() {}

    /// The factor that `scale` asks for; `current` is the camera's factor now (used when this
    /// update starts a gesture).
    public mutating func factor(forScale scale: Double, current: Double,
                                at now: ContinuousClock.Instant = .now) -> Double {
        if let last = lastUpdate, now - last <= Self.idleGap, let start = startFactor {
            lastUpdate = now
            return start * scale
        }
        startFactor = current
        lastUpdate = now
        return current * scale
    }

    public mutating func end() {
        startFactor = nil
        lastUpdate = nil
    }
}
