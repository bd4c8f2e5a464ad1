#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// printf-style formatting by the C library (`%d`, `%02x`, `%.2f`…; no `%@`). Foundation's
    /// `String(format:)` lives in the Foundation that links all of ICU — about 40 MB of code and
    /// data — into lensd and lensctl; this one needs only libc. lensd and lensctl never call
    /// setlocale, so numbers are written as in the C locale (a point before the decimals).
    public init(cFormat format: String, _ arguments: CVarArg...) {
        let length = withVaList(arguments) { vsnprintf(nil, 0, format, $0) }
        guard length > 0 else {
            self = ""
            return
        }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        self = String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension StringProtocol {
    /// The text without the leading and trailing characters `isTrimmed` names (white space and
    /// line ends by default): Foundation's `trimmingCharacters(in:)` without Foundation.
    public func trimmed(_ isTrimmed: (Character) -> Bool = \.isWhitespace) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
