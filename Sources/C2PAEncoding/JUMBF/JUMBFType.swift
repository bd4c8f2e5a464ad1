/// JUMBF superbox content types (ISO 19566-5): a four-character code followed by the ISO suffix.
public struct JUMBFType: Hashable, Sendable, CustomStringConvertible {
    public let uuid: [UInt8]

    public init(uuid: [UInt8]) { self.uuid = uuid }

    init(fourCC: String) {
        uuid = Array(fourCC.utf8) + [0x00, 0x11, 0x00, 0x10, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
    }

    public static let manifestStore = JUMBFType(fourCC: "c2pa")
    public static let manifest = JUMBFType(fourCC: "c2ma")
    public static let updateManifest = JUMBFType(fourCC: "c2um")
    public static let assertionStore = JUMBFType(fourCC: "c2as")
    public static let claim = JUMBFType(fourCC: "c2cl")
    public static let claimSignature = JUMBFType(fourCC: "c2cs")
    public static let cbor = JUMBFType(fourCC: "cbor")
    public static let json = JUMBFType(fourCC: "json")
    /// Embedded file (ISO 19566-5 Annex A): a `bfdb` description box and a `bidb` data box.
    public static let embeddedFile = JUMBFType(uuid: [0x40, 0xcb, 0x0c, 0x32, 0xbb, 0x8a, 0x48, 0x9d,
                                                      0xa7, 0x0b, 0x2a, 0xd6, 0xf4, 0x7f, 0x43, 0x69])

    public var description: String { uuid.hexString }
}
