import LensCrypto

/// `c2pa.hash.data`: the hard binding of a JPEG — a hash over the file minus the manifest's bytes.
public struct DataHashAssertion: Assertion {
    public struct Exclusion: Hashable, Sendable {
        public var start: Int
        public var length: Int
        public init(start: Int, length: Int) {
            self.start = start
            self.length = length
        }
    }

    public var exclusions: [Exclusion]
    public var algorithm: DigestAlgorithm
    public var hash: [UInt8]
    /// Zero bytes in `pad` (at most 23, so its own head stays one byte): what lets a writer size
    /// the store before it knows how wide the exclusion's length encodes.
    public var padding: Int
    public var label: String { Labels.dataHash }

    public init(exclusions: [Exclusion], algorithm: DigestAlgorithm = .sha256, hash: [UInt8], padding: Int = 0) {
        self.exclusions = exclusions
        self.algorithm = algorithm
        self.hash = hash
        self.padding = padding
    }

    public func content() throws -> AssertionContent {
        .cbor(.textMap([
            ("exclusions", .array(exclusions.map { .textMap([("start", .int($0.start)), ("length", .int($0.length))]) })),
            ("name", .text("jumbf manifest")),
            ("alg", .text(algorithm.rawValue)),
            ("hash", .bytes(hash)),
            // The spec's CDDL requires `pad`, for exactly this: keeping the size fixed while fields change.
            ("pad", .bytes([UInt8](repeating: 0, count: padding))),
        ]))
    }

    /// Reads the assertion from its CBOR; `claimAlgorithm` applies when the assertion names none.
    public init(cbor: CBOR, claimAlgorithm: DigestAlgorithm) throws {
        guard let hash = cbor["hash"]?.bytesValue else { throw C2PAError.malformed("c2pa.hash.data has no hash") }
        var exclusions: [Exclusion] = []
        for item in cbor["exclusions"]?.arrayValue ?? [] {
            guard let start = item["start"]?.intValue, let length = item["length"]?.intValue, start >= 0, length >= 0,
                  length <= Int.max - start else {
                throw C2PAError.malformed("c2pa.hash.data exclusion is not {start, length}")
            }
            exclusions.append(Exclusion(start: start, length: length))
        }
        var algorithm = claimAlgorithm
        if let name = cbor["alg"]?.textValue {
            guard let named = DigestAlgorithm(rawValue: name) else {
                throw C2PAError.malformed("c2pa.hash.data algorithm \(name) is not supported")
            }
            algorithm = named
        }
        self.init(exclusions: exclusions, algorithm: algorithm, hash: hash)
    }

    /// As c2pa-rs does once an update manifest joined the store: the exclusion that starts where
    /// the store starts now covers all of it, and exclusions after it move by the growth.
    mutating func widenStoreExclusion(to store: Range<Int>) {
        guard let index = exclusions.firstIndex(where: { $0.start == store.lowerBound }) else { return }
        let growth = max(0, store.count - exclusions[index].length)
        exclusions[index] = Exclusion(start: store.lowerBound, length: store.count)
        for other in exclusions.indices where exclusions[other].start > store.lowerBound {
            exclusions[other].start += growth
        }
    }
}
