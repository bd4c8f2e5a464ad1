/// A small XML reader for one job: OpenCV's cascade files, read as hostile input. It knows
/// elements, attributes (skipped), text, comments and the `<?xml?>` prolog; anything else
/// (DOCTYPE, CDATA, entities, processing instructions inside the document) is refused rather
/// than half-understood. Every size and count is bounded, so no input makes it allocate or
/// recurse without limit.
struct BoundedXML {
    struct Element {
        var name: String
        var children: [Element] = []
        /// The element's own text (its children's not included), as raw bytes.
        var text: [UInt8] = []

        /// The first child with that name.
        func child(_ name: String) -> Element? { children.first { $0.name == name } }
    }

    struct Limits {
        var bytes = 4 << 20
        var depth = 16
        var elements = 200_000
        var nameLength = 64
    }

    let root: Element

    init(_ bytes: [UInt8], limits: Limits = Limits()) throws(CascadeError) {
        guard bytes.count <= limits.bytes else {
            throw CascadeError("the file has \(bytes.count) bytes; a cascade may have at most \(limits.bytes)")
        }
        var reader = Reader(bytes: bytes, limits: limits)
        root = try reader.document()
    }
}

private struct Reader {
    let bytes: [UInt8]
    let limits: BoundedXML.Limits
    var position = 0
    var elementCount = 0

    init(bytes: [UInt8], limits: BoundedXML.Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    mutating func document() throws(CascadeError) -> BoundedXML.Element {
        skipUTF8BOM()
        var root: BoundedXML.Element?
        while true {
            skipWhitespace()
            if position == bytes.count { break }
            if starts(with: "<?") {
                guard root == nil else { throw failure("a processing instruction after the root element") }
                try skip(past: "?>", what: "the XML declaration")
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<!") {
                throw failure("DOCTYPE, CDATA and other declarations are not supported")
            } else if bytes[position] == UInt8(ascii: "<") {
                guard root == nil else { throw failure("a second root element") }
                root = try element(depth: 1)
            } else {
                throw failure("text outside the root element")
            }
        }
        guard let root else { throw CascadeError("not an XML document: no root element") }
        return root
    }

    /// An element starting at `<`, up to and including its end tag.
    mutating func element(depth: Int) throws(CascadeError) -> BoundedXML.Element {
        guard depth <= limits.depth else { throw failure("elements nested deeper than \(limits.depth)") }
        elementCount += 1
        guard elementCount <= limits.elements else { throw failure("more than \(limits.elements) elements") }
        position += 1  // "<"
        var element = BoundedXML.Element(name: try name())
        if try attributesEndSelfClosing() { return element }
        while true {
            guard position < bytes.count else { throw failure("<\(element.name)> is not closed") }
            if starts(with: "</") {
                position += 2
                let closing = try name()
                guard closing == element.name else { throw failure("</\(closing)> closes <\(element.name)>") }
                skipWhitespace()
                try expect(">")
                return element
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<!") || starts(with: "<?") {
                throw failure("declarations and processing instructions inside elements are not supported")
            } else if bytes[position] == UInt8(ascii: "<") {
                element.children.append(try self.element(depth: depth + 1))
            } else {
                let start = position
                while position < bytes.count, bytes[position] != UInt8(ascii: "<") {
                    guard bytes[position] != UInt8(ascii: "&") else { throw failure("entity references are not supported") }
                    position += 1
                }
                element.text += bytes[start..<position]
            }
        }
    }

    /// Skips `name="value"` pairs; true when the tag ends with `/>`.
    mutating func attributesEndSelfClosing() throws(CascadeError) -> Bool {
        while true {
            skipWhitespace()
            if starts(with: "/>") { position += 2; return true }
            if starts(with: ">") { position += 1; return false }
            _ = try name()
            skipWhitespace()
            try expect("=")
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
                throw failure("an attribute value must be quoted")
            }
            let quote = bytes[position]
            position += 1
            while position < bytes.count, bytes[position] != quote {
                guard bytes[position] != UInt8(ascii: "<") else { throw failure("'<' inside an attribute value") }
                position += 1
            }
            guard position < bytes.count else { throw failure("an attribute value is not closed") }
            position += 1
        }
    }

    mutating func name() throws(CascadeError) -> String {
        let start = position
        while position < bytes.count, position - start < limits.nameLength + 1, isNameByte(bytes[position]) { position += 1 }
        guard position > start else { throw failure("a tag without a name") }
        guard position - start <= limits.nameLength else { throw failure("a name longer than \(limits.nameLength) bytes") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"): true
        default: false
        }
    }

    mutating func expect(_ text: String) throws(CascadeError) {
        guard starts(with: text) else { throw failure("expected '\(text)'") }
        position += text.utf8.count
    }

    mutating func skip(past terminator: String, what: String) throws(CascadeError) {
        let end = Array(terminator.utf8)
        var index = position
        while index + end.count <= bytes.count {
            if bytes[index..<index + end.count].elementsEqual(end) {
                position = index + end.count
                return
            }
            index += 1
        }
        throw failure("\(what) is not closed")
    }

    func starts(with text: String) -> Bool {
        let prefix = text.utf8
        return bytes.count - position >= prefix.count && bytes[position..<position + prefix.count].elementsEqual(prefix)
    }

    mutating func skipWhitespace() {
        while position < bytes.count, Whitespace.contains(bytes[position]) { position += 1 }
    }

    mutating func skipUTF8BOM() {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    /// The error, with the line it was found on.
    func failure(_ what: String) -> CascadeError {
        let line = 1 + bytes[..<min(position, bytes.count)].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        return CascadeError("line \(line): \(what)")
    }
}

/// XML's whitespace bytes (the cascade files use CRLF line ends).
enum Whitespace {
    static func contains(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
