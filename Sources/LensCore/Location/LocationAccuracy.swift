/// The capture gate's location test, shared by the daemon and its tests.
public enum LocationAccuracy {
    /// Settable maximum accuracy in metres, both ends inclusive (the SDK's
    /// setMaximumLocationAccuracy range).
    public static let range: ClosedRange<Double> = 3...1500
    public static let defaultThreshold = 1500.0

    /// False for NaN, ±infinity and anything outside `range`.
    public static func isValidThreshold(_ value: Double) -> Bool {
        value.isFinite && range.contains(value)
    }

    /// True when `fix` is a 2D or 3D position with finite coordinates whose accuracy radius is
    /// finite and at most `threshold` metres. Freshness is the provider's job: pass its
    /// `currentFix`, which is already nil once the fix is stale.
    public static func satisfies(_ fix: LocationFix?, threshold: Double) -> Bool {
        guard let fix, fix.mode != .none else { return false }
        return fix.latitude.isFinite && fix.longitude.isFinite
            && fix.horizontalAccuracy.isFinite && fix.horizontalAccuracy <= threshold
    }
}
