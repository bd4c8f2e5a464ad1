import Foundation

/// Durations as lensctl prints them: to the millisecond, the precision a frame time needs,
/// rather than the 16 digits a Double carries.
enum Seconds {
    /// For JSON: 2.0333333333333332 → 2.033.
    static func milliseconds(_ seconds: Double) -> Double {
        (seconds * 1000).rounded() / 1000
    }

    /// For text: "2.033".
    static func text(_ seconds: Double) -> String {
        String(format: "%.3f", seconds)
    }
}
