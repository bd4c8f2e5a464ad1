/// A JUMBF description box (`jumd`).
public struct JUMBFDescription: Hashable, Sendable {
    static let requestable: UInt8 = 0x01
    static let hasLabel: UInt8 = 0x02
    static let hasID: UInt8 = 0x04
    static let hasSignature: UInt8 = 0x08
    static let hasPrivateBox: UInt8 = 0x10

    public var type: JUMBFType
    public var label: String?
    public var id: UInt32?
    public var signature: [UInt8]?
    /// The salt of a `c2sh` private box; C2PA salts assertions so their hashes cannot be guessed.
    public var salt: [UInt8]?

    public init(type: JUMBFType, label: String?, salt: [UInt8]? = nil) {
        self.type = type
        self.label = label
        self.salt = salt
    }
}

/// A node inside a JUMBF superbox: a nested superbox or a plain content box.
public enum JUMBFNode: Hashable, Sendable {
    case superbox(JUMBFSuperbox)
    case content(type: String, payload: [UInt8])
}

/// A JUMBF superbox (`jumb`). `payload` holds the bytes after the 8-byte box header exactly as read
/// or written: C2PA hashed URIs cover these bytes, so they are never re-serialized for hashing.
public struct JUMBFSuperbox: Hashable, Sendable {
    public let description: JUMBFDescription
    public let children: [JUMBFNode]
    public let payload: [UInt8]

    public init(description: JUMBFDescription, children: [JUMBFNode]) {
        self.description = description
        self.children = children
        var bytes = JUMBFWriter.box(type: "jumd", payload: JUMBFWriter.descriptionPayload(description))
        for child in children { bytes += JUMBFWriter.encode(child) }
        self.payload = bytes
    }

    init(description: JUMBFDescription, children: [JUMBFNode], payload: [UInt8]) {
        self.description = description
        self.children = children
        self.payload = payload
    }

    public var label: String? { description.label }

    /// The whole box, header included.
    public var encoded: [UInt8] { JUMBFWriter.box(type: "jumb", payload: payload) }

    public var superboxes: [JUMBFSuperbox] {
        children.compactMap { if case .superbox(let box) = $0 { return box } else { return nil } }
    }

    public func child(labeled label: String) -> JUMBFSuperbox? {
        superboxes.first { $0.label == label }
    }

    /// The first content box of the given type, e.g. the `cbor` box of an assertion.
    public func content(_ type: String) -> [UInt8]? {
        for case .content(let t, let payload) in children where t == type { return payload }
        return nil
    }
}
