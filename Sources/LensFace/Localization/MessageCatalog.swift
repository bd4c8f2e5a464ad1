/// A compiled gettext catalog (.mo, as msgfmt writes it), read as hostile input: the header,
/// both string tables and every string are bounds-checked before use, and the sizes are
/// capped. The hash table is not needed: the whole catalog is small, so it is read into a
/// dictionary once.
public struct MessageCatalog: Sendable {
    /// msgid → msgstr. Plural forms keep their singular; entries with a context (msgctxt) are
    /// stored under "context\u{4}msgid", as gettext keys them.
    public let translations: [String: String]

    public static let maximumBytes = 16 << 20
    public static let maximumStrings = 100_000

    public init(contentsOf path: String) throws(MessageCatalogError) {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, limit: Self.maximumBytes)
        } catch {
            throw MessageCatalogError("\(path): \(error)")
        }
        do {
            try self.init(mo: bytes)
        } catch {
            throw MessageCatalogError("\(path): \(error.description)")
        }
    }

    public init(mo bytes: [UInt8]) throws(MessageCatalogError) {
        guard bytes.count <= Self.maximumBytes else { throw MessageCatalogError("larger than \(Self.maximumBytes) bytes") }
        guard bytes.count >= 20 else { throw MessageCatalogError("\(bytes.count) bytes is too short for a .mo header") }
        let littleEndian: Bool
        switch Self.word(bytes, at: 0, littleEndian: true) {
        case 0x9504_12de: littleEndian = true
        case 0xde12_0495: littleEndian = false
        default: throw MessageCatalogError("not a .mo file (bad magic number)")
        }
        func word(_ offset: Int) -> Int { Int(Self.word(bytes, at: offset, littleEndian: littleEndian)) }
        guard word(4) >> 16 <= 1 else { throw MessageCatalogError("unsupported .mo revision \(word(4) >> 16)") }
        let count = word(8), originals = word(12), translated = word(16)
        guard count <= Self.maximumStrings else { throw MessageCatalogError("\(count) strings; at most \(Self.maximumStrings) are accepted") }
        for table in [originals, translated] {
            guard table <= bytes.count, count * 8 <= bytes.count - table else {
                throw MessageCatalogError("a string table lies outside the file")
            }
        }
        func string(table: Int, index: Int) throws(MessageCatalogError) -> [UInt8] {
            let length = word(table + 8 * index), offset = word(table + 8 * index + 4)
            // Each string is followed by a NUL that its length does not count.
            guard offset <= bytes.count, length < bytes.count - offset else {
                throw MessageCatalogError("string \(index) lies outside the file")
            }
            return Array(bytes[offset..<(offset + length)])
        }
        var translations: [String: String] = [:]
        for index in 0..<count {
            let original = try string(table: originals, index: index)
            let translation = try string(table: translated, index: index)
            guard !original.isEmpty else { continue }  // the header entry
            guard let key = String(validating: Self.singular(original), as: UTF8.self),
                  let value = String(validating: Self.singular(translation), as: UTF8.self) else {
                throw MessageCatalogError("string \(index) is not UTF-8")
            }
            if !value.isEmpty { translations[key] = value }
        }
        self.translations = translations
    }

    public func translation(of msgid: String) -> String? { translations[msgid] }

    /// The translation of `msgid` in `context` (its msgctxt).
    public func translation(of msgid: String, context: String) -> String? { translations["\(context)\u{4}\(msgid)"] }

    /// The first of NUL-separated plural forms.
    private static func singular(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes[..<(bytes.firstIndex(of: 0) ?? bytes.endIndex)]
    }

    /// A 32-bit word; the caller has checked `offset + 4 <= bytes.count` for the header, and
    /// table reads are inside the tables it checked.
    private static func word(_ bytes: [UInt8], at offset: Int, littleEndian: Bool) -> UInt32 {
        let b = bytes[offset..<(offset + 4)].map(UInt32.init)
        return littleEndian ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[3] | b[2] << 8 | b[1] << 16 | b[0] << 24
    }
}

public struct MessageCatalogError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) { self.description = description }
}
