import FoundationEssentials
import LensSystem
import LensCrypto

/// c2pa-rs's trust settings (what c2patool reads from its settings file, JSON or TOML): the
/// `trust` table's `trust_anchors` and `user_anchors` (PEM bundles), `allowed_list` (PEM
/// certificates, or base64 SHA-256 digests of certificates, one a line) and `trust_config` (extra
/// EKU OIDs, one a line; `//` lines are comments). Every other setting is not read. As in c2pa-rs,
/// a literal `\n` in a value is a line break (JSON files carry PEM that way).
public struct TrustSettings: Sendable {
    public var anchors: [Certificate] = []
    public var allowedCertificates: Set<[UInt8]> = []
    public var extendedKeyUsages: Set<String> = []

    /// `source` names the file in errors; JSON when the text starts with `{`, else TOML.
    public init(contents bytes: [UInt8], source: String) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        let trust: [String: String]
        if text.drop(while: \.isWhitespace).first == "{" {
            guard let object = try? JSONParser.parse(bytes) as? [String: Any] else {
                throw C2PAError.malformed("\(source) is not a JSON object")
            }
            guard let table = object["trust"] else { throw C2PAError.malformed("\(source) has no \"trust\" settings") }
            guard let entries = table as? [String: Any] else { throw C2PAError.malformed("\(source): \"trust\" is not an object") }
            trust = entries.compactMapValues { $0 as? String }
        } else {
            trust = try TOMLTable(text, source: source).strings(in: "trust")
        }
        func value(_ key: String) -> String? { trust[key]?.replacing("\\n", with: "\n") }
        for key in ["trust_anchors", "user_anchors"] {
            guard let pem = value(key), pem.contains("-----BEGIN") else { continue }
            do { anchors += try Certificate.parsePEM(pem) } catch {
                throw C2PAError.malformed("\(source): trust.\(key) does not read (\(error))")
            }
        }
        if let allowed = value("allowed_list") {
            allowedCertificates = try Self.allowedDigests(allowed, source: source)
        }
        if let config = value("trust_config") {
            extendedKeyUsages = Set(config.split(whereSeparator: \.isNewline).map { $0.trimmed() }
                .filter(Self.isOID))
        }
    }

    /// The digests c2pa-rs's allowed list trusts: each PEM certificate's, and each 44-character
    /// base64 line outside a PEM block.
    private static func allowedDigests(_ text: String, source: String) throws -> Set<[UInt8]> {
        var digests = Set<[UInt8]>()
        var insideBlock = false
        for line in text.split(whereSeparator: \.isNewline).map(String.init) {
            if line.contains("-----BEGIN") { insideBlock = true }
            if line.contains("-----END") { insideBlock = false; continue }
            if !insideBlock, line.count == 44, let digest = Data(base64Encoded: line), digest.count == 32 {
                digests.insert(Array(digest))
            }
        }
        if text.contains("-----BEGIN") {
            do { digests.formUnion(try Certificate.parsePEM(text).map(\.sha256Fingerprint)) } catch {
                throw C2PAError.malformed("\(source): trust.allowed_list does not read (\(error))")
            }
        }
        return digests
    }

    private static func isOID(_ text: String) -> Bool {
        let arcs = text.split(separator: ".", omittingEmptySubsequences: false)
        return arcs.count >= 2 && arcs.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }
}

/// Just enough TOML to read one table's string values out of a c2pa-rs settings file: every
/// value is scanned (strings of all four kinds, arrays and inline tables to their end), only the
/// named table's strings are kept.
private struct TOMLTable {
    private let scalars: [Unicode.Scalar]
    private let source: String
    private var position = 0

    init(_ text: String, source: String) {
        scalars = Array(text.unicodeScalars)
        self.source = source
    }

    func strings(in table: String) throws -> [String: String] {
        var reader = self
        return try reader.read(table)
    }

    private mutating func read(_ wanted: String) throws -> [String: String] {
        var table = ""
        var found: [String: String] = [:]
        while skipBlankAndComments() {
            if peek == "[" {
                let header = readLine().trimmed()
                guard header.hasSuffix("]") else { throw fail("a table header does not close") }
                table = header.trimmed { "[] \t".contains($0) }
                continue
            }
            let key = try readKey()
            skipSpaces()
            guard next() == "=" else { throw fail("expected = after \(key)") }
            skipSpaces()
            let value = try readValue()
            if table == wanted, let value { found[key] = value }
        }
        return found
    }

    private func fail(_ why: String) -> C2PAError {
        let line = scalars[..<min(position, scalars.count)].filter { $0 == "\n" }.count + 1
        return .malformed("\(source):\(line): \(why)")
    }

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private mutating func next() -> Unicode.Scalar? {
        defer { position += 1 }
        return peek
    }

    private func starts(with text: String) -> Bool {
        let wanted = Array(text.unicodeScalars)
        return position + wanted.count <= scalars.count && Array(scalars[position..<(position + wanted.count)]) == wanted
    }

    private mutating func skipSpaces() {
        while peek == " " || peek == "\t" { position += 1 }
    }

    /// Skips blank lines and comments; false at the end.
    private mutating func skipBlankAndComments() -> Bool {
        while let c = peek {
            if c == " " || c == "\t" || c == "\n" || c == "\r" { position += 1 } else if c == "#" { _ = readLine() } else { return true }
        }
        return false
    }

    private mutating func readLine() -> String {
        var line = String.UnicodeScalarView()
        while let c = next(), c != "\n" { line.append(c) }
        return String(line)
    }

    private mutating func readKey() throws -> String {
        if peek == "\"" || peek == "'" { return try readString() }
        var key = String.UnicodeScalarView()
        while let c = peek, c != "=", c != " ", c != "\t", c != "\n" { key.append(c); position += 1 }
        guard !key.isEmpty else { throw fail("expected a key") }
        return String(key)
    }

    /// A string's value; nil for any other kind of value (skipped).
    private mutating func readValue() throws -> String? {
        switch peek {
        case "\"", "'": return try readString()
        case "[", "{": try skipContainer(); return nil
        default: _ = readLine(); return nil
        }
    }

    private mutating func skipContainer() throws {
        var depth = 0
        repeat {
            guard let c = peek else { throw fail("an array or inline table does not close") }
            switch c {
            case "\"", "'": _ = try readString()
            case "#": _ = readLine()
            case "[", "{": depth += 1; position += 1
            case "]", "}": depth -= 1; position += 1
            default: position += 1
            }
        } while depth > 0
    }

    private mutating func readString() throws -> String {
        let quote = next()!
        let multiline = starts(with: quote == "\"" ? "\"\"" : "''")
        if multiline {
            position += 2
            if peek == "\n" { position += 1 } else if starts(with: "\r\n") { position += 2 }
        }
        var value = String.UnicodeScalarView()
        while true {
            guard let c = next() else { throw fail("a string does not close") }
            if c == quote && (!multiline || starts(with: quote == "\"" ? "\"\"" : "''")) {
                if multiline { position += 2 }
                return String(value)
            }
            if c == "\n" && !multiline { throw fail("a string does not close on its line") }
            if c == "\\" && quote == "\"" {
                guard let escaped = next() else { throw fail("a string ends in an escape") }
                switch escaped {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "r": value.append("\r")
                case "\"", "\\": value.append(escaped)
                case "\n": while let s = peek, s == " " || s == "\n" || s == "\t" || s == "\r" { position += 1 }
                case "u", "U":
                    let count = escaped == "u" ? 4 : 8
                    guard position + count <= scalars.count,
                          let code = UInt32(String(String.UnicodeScalarView(scalars[position..<(position + count)])), radix: 16),
                          let scalar = Unicode.Scalar(code) else { throw fail("a bad unicode escape") }
                    value.append(scalar)
                    position += count
                default: throw fail("an unknown escape \\\(escaped)")
                }
            } else {
                value.append(c)
            }
        }
    }
}
