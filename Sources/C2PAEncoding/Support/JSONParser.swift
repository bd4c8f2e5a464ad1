/// JSON null in what `JSONParser` returns.
package struct JSONNull: Sendable, Equatable {}

/// Untrusted JSON (RFC 8259) in one pass, into the loose shape JSONSerialization returned:
/// `[String: Any]`, `[Any]`, `String`, `Double`, `Bool` and `JSONNull`. Written here because
/// JSONSerialization comes with the Foundation that links all of ICU into lensd and lensctl, and a
/// decoder that tries each type in turn costs O(depth²) per value (a fuzzer found that hang).
/// Nesting is bounded, strings must be UTF-8, and a duplicate key keeps its last value.
package struct JSONParser {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    static let maximumDepth = 512

    /// `fragments`: a top-level string, number, boolean or null is accepted too.
    package static func parse(_ bytes: [UInt8], fragments: Bool = false) throws(Failure) -> Any {
        var parser = JSONParser(bytes: bytes)
        parser.skipSpace()
        if !fragments, parser.peek != UInt8(ascii: "{"), parser.peek != UInt8(ascii: "[") {
            throw parser.fail("the top level is not an object or an array")
        }
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == bytes.count else { throw parser.fail("text after the value") }
        return value
    }

    private let bytes: [UInt8]
    private var position = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private func fail(_ what: String) -> Failure {
        Failure(description: "\(what) at byte \(position)")
    }

    private mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    private mutating func expect(_ word: String) throws(Failure) {
        for byte in word.utf8 {
            guard peek == byte else { throw fail("not a JSON value") }
            position += 1
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> Any {
        guard depth < Self.maximumDepth else { throw fail("nested deeper than \(Self.maximumDepth)") }
        switch peek {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return try string()
        case UInt8(ascii: "t"): try expect("true"); return true
        case UInt8(ascii: "f"): try expect("false"); return false
        case UInt8(ascii: "n"): try expect("null"); return JSONNull()
        case nil: throw fail("the text ends where a value should be")
        default: return try number()
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> [String: Any] {
        position += 1
        var members: [String: Any] = [:]
        skipSpace()
        if peek == UInt8(ascii: "}") {
            position += 1
            return members
        }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw fail("an object key is not a string") }
            let key = try string()
            skipSpace()
            guard peek == UInt8(ascii: ":") else { throw fail("expected : after an object key") }
            position += 1
            skipSpace()
            members[key] = try value(depth: depth + 1)
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return members
            default: throw fail("expected , or } in an object")
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> [Any] {
        position += 1
        var elements: [Any] = []
        skipSpace()
        if peek == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            skipSpace()
            elements.append(try value(depth: depth + 1))
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return elements
            default: throw fail("expected , or ] in an array")
            }
        }
    }

    private mutating func string() throws(Failure) -> String {
        position += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek else { throw fail("a string does not end") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else { throw fail("a string is not UTF-8") }
                return text
            case UInt8(ascii: "\\"): try escape(into: &utf8)
            case 0..<0x20: throw fail("a control character in a string")
            default: utf8.append(byte)
            }
        }
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(Failure) {
        guard let byte = peek else { throw fail("a string does not end") }
        position += 1
        let simple: [UInt8: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C, 0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09]
        if let replacement = simple[byte] {
            utf8.append(replacement)
            return
        }
        guard byte == UInt8(ascii: "u") else { throw fail("an unknown escape in a string") }
        var scalar = try hexUnit()
        if (0xD800..<0xDC00).contains(scalar) {
            // A high surrogate takes the low one of its pair from the next \u escape.
            guard peek == UInt8(ascii: "\\") else { throw fail("a lone surrogate in a string") }
            position += 1
            guard peek == UInt8(ascii: "u") else { throw fail("a lone surrogate in a string") }
            position += 1
            let low = try hexUnit()
            guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate in a string") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let character = Unicode.Scalar(scalar) else { throw fail("a lone surrogate in a string") }
        utf8.append(contentsOf: Array(String(Character(character)).utf8))
    }

    private mutating func hexUnit() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count,
              let unit = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16),
              bytes[position..<position + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") }) else {
            throw fail("a \\u escape without four hex digits")
        }
        position += 4
        return unit
    }

    /// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    private mutating func number() throws(Failure) -> Double {
        let start = position
        func digits(_ parser: inout JSONParser) -> Int {
            let first = parser.position
            while let byte = parser.peek, (0x30...0x39).contains(byte) { parser.position += 1 }
            return parser.position - first
        }
        if peek == UInt8(ascii: "-") { position += 1 }
        if peek == UInt8(ascii: "0") {
            position += 1
        } else if digits(&self) == 0 {
            throw fail("not a JSON value")
        }
        if peek == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw fail("a number without digits after its point") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw fail("a number without digits in its exponent") }
        }
        guard let number = Double(String(decoding: bytes[start..<position], as: UTF8.self)), number.isFinite else {
            throw fail("a number out of range")
        }
        return number
    }
}
