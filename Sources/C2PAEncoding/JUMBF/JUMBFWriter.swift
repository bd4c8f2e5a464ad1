package enum JUMBFWriter {
    package static func box(type: String, payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + 8)
        out.appendBigEndian(UInt32(payload.count + 8))
        out.append(ascii: type)
        out += payload
        return out
    }

    static func encode(_ node: JUMBFNode) -> [UInt8] {
        switch node {
        case .superbox(let box): return box.encoded
        case .content(let type, let payload): return box(type: type, payload: payload)
        }
    }

    static func descriptionPayload(_ d: JUMBFDescription) -> [UInt8] {
        var toggles = JUMBFDescription.requestable
        if d.label != nil { toggles |= JUMBFDescription.hasLabel }
        if d.id != nil { toggles |= JUMBFDescription.hasID }
        if d.signature != nil { toggles |= JUMBFDescription.hasSignature }
        if d.salt != nil { toggles |= JUMBFDescription.hasPrivateBox }
        var out = d.type.uuid
        out.append(toggles)
        if let label = d.label {
            out.append(ascii: label)
            out.append(0)
        }
        if let id = d.id { out.appendBigEndian(id) }
        if let signature = d.signature { out += signature }
        if let salt = d.salt { out += box(type: "c2sh", payload: salt) }
        return out
    }
}
