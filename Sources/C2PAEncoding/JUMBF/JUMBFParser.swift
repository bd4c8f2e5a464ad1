/// Parses JUMBF from untrusted bytes. Box sizes are checked against their parent, nesting is bounded.
public enum JUMBFParser {
    static let maximumDepth = 16

    /// Parses a buffer that must hold exactly one `jumb` superbox.
    public static func parseSuperbox(_ bytes: [UInt8]) throws -> JUMBFSuperbox {
        var reader = ByteReader(bytes)
        let box = try readBox(&reader)
        guard box.type == "jumb" else { throw C2PAError.malformed("JUMBF: expected jumb, found \(box.type)") }
        guard reader.isAtEnd else { throw C2PAError.malformed("JUMBF: \(reader.remaining) bytes after the superbox") }
        return try superbox(payload: box.payload, depth: 0)
    }

    struct RawBox {
        var type: String
        var payload: ArraySlice<UInt8>
    }

    static func readBox(_ r: inout ByteReader) throws -> RawBox {
        let size32 = try r.readUInt32()
        let type = fourCC(try r.readBytes(4))
        let payloadSize: Int
        switch size32 {
        case 0: payloadSize = r.remaining
        case 1:
            let size64 = try r.readUInt64()
            guard size64 >= 16, size64 - 16 <= UInt64(r.remaining) else {
                throw C2PAError.malformed("JUMBF box \(type): bad extended size \(size64)")
            }
            payloadSize = Int(size64 - 16)
        default:
            guard size32 >= 8, Int(size32) - 8 <= r.remaining else {
                throw C2PAError.malformed("JUMBF box \(type): size \(size32) does not fit")
            }
            payloadSize = Int(size32) - 8
        }
        return RawBox(type: type, payload: try r.readBytes(payloadSize))
    }

    package static func fourCC(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { (0x20...0x7e).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    private static func superbox(payload: ArraySlice<UInt8>, depth: Int) throws -> JUMBFSuperbox {
        guard depth < maximumDepth else { throw C2PAError.malformed("JUMBF nested deeper than \(maximumDepth)") }
        var r = ByteReader(payload)
        let first = try readBox(&r)
        guard first.type == "jumd" else { throw C2PAError.malformed("JUMBF superbox without a description box") }
        let description = try parseDescription(first.payload)
        var children: [JUMBFNode] = []
        while !r.isAtEnd {
            let box = try readBox(&r)
            if box.type == "jumb" {
                children.append(.superbox(try superbox(payload: box.payload, depth: depth + 1)))
            } else {
                children.append(.content(type: box.type, payload: Array(box.payload)))
            }
        }
        return JUMBFSuperbox(description: description, children: children, payload: Array(payload))
    }

    private static func parseDescription(_ bytes: ArraySlice<UInt8>) throws -> JUMBFDescription {
        var r = ByteReader(bytes)
        let type = JUMBFType(uuid: Array(try r.readBytes(16)))
        let toggles = try r.readUInt8()
        var description = JUMBFDescription(type: type, label: nil)
        if toggles & JUMBFDescription.hasLabel != 0 {
            let rest = bytes[r.position...]
            guard let nul = rest.firstIndex(of: 0) else { throw C2PAError.malformed("JUMBF label is not terminated") }
            let raw = try r.readBytes(nul - r.position)
            _ = try r.readUInt8()
            guard let label = String(validating: raw, as: UTF8.self) else {
                throw C2PAError.malformed("JUMBF label is not UTF-8")
            }
            description.label = label
        }
        if toggles & JUMBFDescription.hasID != 0 { description.id = try r.readUInt32() }
        if toggles & JUMBFDescription.hasSignature != 0 { description.signature = Array(try r.readBytes(32)) }
        if toggles & JUMBFDescription.hasPrivateBox != 0 {
            let privateBox = try readBox(&r)
            if privateBox.type == "c2sh" { description.salt = Array(privateBox.payload) }
        }
        return description
    }
}
