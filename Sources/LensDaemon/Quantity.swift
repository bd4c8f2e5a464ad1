import FoundationEssentials
import LensSystem

/// A number with an optional unit suffix, as configuration values are written by people.
enum Quantity {
    static let byteUnits: [String: Int] = ["": 1, "K": 1 << 10, "KiB": 1 << 10, "M": 1 << 20, "MiB": 1 << 20,
                                           "G": 1 << 30, "GiB": 1 << 30, "T": 1 << 40, "TiB": 1 << 40]
    static let timeUnits: [String: Int] = ["": 1, "s": 1, "m": 60, "min": 60, "h": 3600, "d": 86_400]

    /// nil for anything but digits followed by one of `units` (no overflow, no sign).
    static func parse(_ text: String, units: [String: Int]) -> Int? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int(digits),
              let factor = units[String(text.dropFirst(digits.count)).trimmed()] else { return nil }
        let (product, overflow) = number.multipliedReportingOverflow(by: factor)
        return overflow ? nil : product
    }
}
