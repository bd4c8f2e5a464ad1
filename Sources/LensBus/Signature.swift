/// D-Bus type signatures, parsed just far enough to count and split complete types.
enum Signature {
    /// The deepest nesting D-Bus allows (32 arrays plus 32 structures).
    static let maximumDepth = 64

    /// Splits a signature into its complete types: "a{sv}s(ii)" → ["a{sv}", "s", "(ii)"].
    /// Returns nil for a malformed signature.
    static func completeTypes(_ signature: String) -> [String]? {
        let bytes = Array(signature.utf8)
        var types: [String] = []
        var start = 0
        while start < bytes.count {
            guard let length = completeTypeLength(bytes, at: start, depth: 0) else { return nil }
            types.append(String(decoding: bytes[start..<start + length], as: UTF8.self))
            start += length
        }
        return types
    }

    private static let basicTypes = Set("ybnqiuxtdsogh".utf8)

    private static func completeTypeLength(_ bytes: [UInt8], at index: Int, depth: Int) -> Int? {
        guard index < bytes.count, depth < maximumDepth else { return nil }
        let code = bytes[index]
        if basicTypes.contains(code) || code == UInt8(ascii: "v") { return 1 }
        switch code {
        case UInt8(ascii: "a"):
            if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{") {
                return dictEntryLength(bytes, at: index + 1, depth: depth + 1).map { $0 + 1 }
            }
            return completeTypeLength(bytes, at: index + 1, depth: depth + 1).map { $0 + 1 }
        case UInt8(ascii: "("):
            var next = index + 1
            while next < bytes.count, bytes[next] != UInt8(ascii: ")") {
                guard let length = completeTypeLength(bytes, at: next, depth: depth + 1) else { return nil }
                next += length
            }
            guard next < bytes.count, next > index + 1 else { return nil }  // unclosed or "()"
            return next + 1 - index
        default:
            return nil
        }
    }

    /// "{" basic-key complete-value "}", valid only as an array element.
    private static func dictEntryLength(_ bytes: [UInt8], at index: Int, depth: Int) -> Int? {
        guard index + 1 < bytes.count, basicTypes.contains(bytes[index + 1]) else { return nil }
        guard let valueLength = completeTypeLength(bytes, at: index + 2, depth: depth + 1) else { return nil }
        let close = index + 2 + valueLength
        guard close < bytes.count, bytes[close] == UInt8(ascii: "}") else { return nil }
        return close + 1 - index
    }
}
