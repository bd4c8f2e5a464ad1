import LensCrypto

/// `c2pa.hash.bmff.v3`: the hard binding of an MP4 — a hash over its root boxes, each prefixed by
/// its file offset, minus the boxes (or parts of boxes) the exclusions select.
public struct BMFFHashAssertion: Assertion {
    /// Selects boxes by path and, optionally, by length, FullBox version/flags and content; a
    /// selected box is excluded whole, or only its `subset` ranges.
    public struct Exclusion: Hashable, Sendable {
        public struct DataMatch: Hashable, Sendable {
            public var offset: Int
            public var value: [UInt8]
            public init(offset: Int, value: [UInt8]) {
                self.offset = offset
                self.value = value
            }
        }

        public struct Subset: Hashable, Sendable {
            public var offset: Int
            /// 0: to the end of the box.
            public var length: Int
            public init(offset: Int, length: Int) {
                self.offset = offset
                self.length = length
            }
        }

        public var xpath: String
        public var length: Int?
        public var data: [DataMatch]?
        public var subset: [Subset]?
        public var version: Int?
        public var flags: [UInt8]?
        public var exact: Bool?

        public init(xpath: String, length: Int? = nil, data: [DataMatch]? = nil, subset: [Subset]? = nil,
                    version: Int? = nil, flags: [UInt8]? = nil, exact: Bool? = nil) {
            (self.xpath, self.length, self.data, self.subset) = (xpath, length, data, subset)
            (self.version, self.flags, self.exact) = (version, flags, exact)
        }
    }

    /// The one exclusion a BMFF hash needs: the C2PA uuid boxes.
    public static let c2paBoxExclusion = Exclusion(xpath: "/uuid", data: [.init(offset: 8, value: ContentProvenanceBox.uuid)])

    /// The exclusions c2pa-rs writes (its bmff_io; C2PA specification 18.6.2): C2PA uuid boxes, ftyp, mfra, free, skip.
    public static let standardExclusions: [Exclusion] = [
        c2paBoxExclusion, Exclusion(xpath: "/ftyp"), Exclusion(xpath: "/mfra"), Exclusion(xpath: "/free"), Exclusion(xpath: "/skip"),
    ]

    public var exclusions: [Exclusion]
    public var algorithm: DigestAlgorithm
    public var hash: [UInt8]
    public var name: String?
    public var label: String { Labels.bmffHashV3 }

    public init(exclusions: [Exclusion] = Self.standardExclusions, algorithm: DigestAlgorithm = .sha256,
                hash: [UInt8], name: String? = "jumbf manifest") {
        self.exclusions = exclusions
        self.algorithm = algorithm
        self.hash = hash
        self.name = name
    }

    public func content() throws -> AssertionContent {
        var entries: [(String, CBOR)] = [
            ("exclusions", .array(exclusions.map(\.cbor))),
            ("alg", .text(algorithm.rawValue)),
            ("hash", .bytes(hash)),
        ]
        if let name { entries.append(("name", .text(name))) }
        return .cbor(.textMap(entries))
    }

    /// Reads the assertion from its CBOR; `claimAlgorithm` applies when the assertion names none.
    /// Merkle trees and remote (`url`) hashes are refused: lensd verifies flat hashes only.
    public init(cbor: CBOR, claimAlgorithm: DigestAlgorithm) throws {
        guard case .map = cbor else { throw C2PAError.malformed("c2pa.hash.bmff is not a map") }
        guard cbor["merkle"] == nil, cbor["url"] == nil else {
            throw C2PAError.unsupported("c2pa.hash.bmff with merkle trees or a remote url")
        }
        guard let hash = cbor["hash"]?.bytesValue else { throw C2PAError.malformed("c2pa.hash.bmff has no hash") }
        guard let items = cbor["exclusions"]?.arrayValue else {
            throw C2PAError.malformed("c2pa.hash.bmff has no exclusions array")
        }
        var algorithm = claimAlgorithm
        if let name = cbor["alg"] {
            guard let text = name.textValue, let named = DigestAlgorithm(rawValue: text) else {
                throw C2PAError.malformed("c2pa.hash.bmff algorithm \(name) is not supported")
            }
            algorithm = named
        }
        self.init(exclusions: try items.map(Exclusion.init(cbor:)), algorithm: algorithm, hash: hash,
                  name: cbor["name"]?.textValue)
    }
}

extension BMFFHashAssertion.Exclusion {
    var cbor: CBOR {
        var entries: [(String, CBOR)] = [("xpath", .text(xpath))]
        if let length { entries.append(("length", .int(length))) }
        if let data {
            entries.append(("data", .array(data.map { .textMap([("offset", .int($0.offset)), ("value", .bytes($0.value))]) })))
        }
        if let subset {
            entries.append(("subset", .array(subset.map { .textMap([("offset", .int($0.offset)), ("length", .int($0.length))]) })))
        }
        if let version { entries.append(("version", .int(version))) }
        if let flags { entries.append(("flags", .bytes(flags))) }
        if let exact { entries.append(("exact", .bool(exact))) }
        return .textMap(entries)
    }

    /// Field types as c2pa-rs declares them: offsets and lengths u32, version u8, flags bytes.
    init(cbor: CBOR) throws {
        guard let xpath = cbor["xpath"]?.textValue else { throw C2PAError.malformed("bmff exclusion has no xpath") }
        func u32(_ value: CBOR?, _ what: String) throws -> Int? {
            guard let value else { return nil }
            guard let n = value.intValue, (0...Int(UInt32.max)).contains(n) else {
                throw C2PAError.malformed("bmff exclusion \(what) is not a u32")
            }
            return n
        }
        func list(_ key: String) throws -> [CBOR]? {
            guard let value = cbor[key] else { return nil }
            guard let items = value.arrayValue else { throw C2PAError.malformed("bmff exclusion \(key) is not an array") }
            return items
        }
        var exclusion = Self(xpath: xpath, length: try u32(cbor["length"], "length"))
        exclusion.data = try list("data")?.map { item in
            guard let offset = try u32(item["offset"], "data offset"), let value = item["value"]?.bytesValue else {
                throw C2PAError.malformed("bmff exclusion data is not {offset, value}")
            }
            return DataMatch(offset: offset, value: value)
        }
        exclusion.subset = try list("subset")?.map { item in
            guard let offset = try u32(item["offset"], "subset offset"), let length = try u32(item["length"], "subset length") else {
                throw C2PAError.malformed("bmff exclusion subset is not {offset, length}")
            }
            return Subset(offset: offset, length: length)
        }
        if let version = cbor["version"] {
            guard let n = version.intValue, (0...255).contains(n) else { throw C2PAError.malformed("bmff exclusion version is not a u8") }
            exclusion.version = n
        }
        if let flags = cbor["flags"] {
            guard let bytes = flags.bytesValue else { throw C2PAError.malformed("bmff exclusion flags are not bytes") }
            exclusion.flags = bytes
        }
        if let exact = cbor["exact"] {
            guard case .bool(let value) = exact else { throw C2PAError.malformed("bmff exclusion exact is not a bool") }
            exclusion.exact = value
        }
        self = exclusion
    }
}
