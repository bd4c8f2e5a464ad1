import FoundationEssentials
import LensSystem

/// Durations as lensctl prints them: to the millisecond, the precision a frame time needs,
/// rather than the 16 digits a Double carries.
enum Seconds {
    /// For JSON: 2.0333333333333332 → 2.033.
    static func milliseconds(_ seconds: Double) -> Double {
        (seconds * 1000).rounded() / 1000
    }

    /// For a message: 60 → "60", 0.5 → "0.5" (a whole number without its point, nothing grouped).
    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// For text: "2.033".
    static func text(_ seconds: Double) -> String {
        String(cFormat: "%.3f", seconds)
    }
}
