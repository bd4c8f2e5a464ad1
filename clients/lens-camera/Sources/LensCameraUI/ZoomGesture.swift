import Foundation

/// A zoom gesture (pinch, or a run of Ctrl+scroll steps) as an absolute factor: the factor when
/// the gesture began times the gesture's cumulative scale, clamped to the camera's range. Never
/// multiplied per update, so an update that arrives twice or late cannot compound.
struct ZoomGesture {
    let startFactor: Double
    let maximum: Double

    func factor(forCumulativeScale scale: Double) -> Double {
        guard scale.isFinite, scale > 0 else { return startFactor }
        return min(max(startFactor * scale, 1), max(maximum, 1))
    }
}

/// Ctrl+scroll as a zoom gesture: steps within `pause` of each other are one gesture, each
/// wheel notch scaling by `stepScale` (scrolling up zooms in).
struct ScrollZoom {
    static let stepScale = 1.25
    static let pause = 0.3

    private(set) var gesture: ZoomGesture?
    private var notches = 0.0
    private var lastStep = -Double.infinity

    /// The factor after a scroll of `dy` notches at `time` (seconds, monotonic).
    mutating func factor(afterScroll dy: Double, at time: Double, currentFactor: Double, maximum: Double) -> Double {
        if gesture == nil || time - lastStep > Self.pause {
            gesture = ZoomGesture(startFactor: currentFactor, maximum: maximum)
            notches = 0
        }
        lastStep = time
        notches -= dy
        return gesture!.factor(forCumulativeScale: pow(Self.stepScale, notches))
    }
}
