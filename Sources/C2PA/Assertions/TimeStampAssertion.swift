/// `c2pa.time-stamp` (C2PA 2.2 §18.18): RFC 3161 tokens for earlier manifests, added later by an
/// update manifest when they were signed offline. A CBOR map from a manifest's label to a
/// TimeStampToken whose imprint is the SHA-256 of the `signature` field of that manifest's
/// COSE_Sign1 (not the whole COSE_Sign1), as c2pa-rs writes and reads it.
public struct TimeStampAssertion: Assertion {
    public var label: String { Labels.timeStamp }
    public var tokens: [(manifestLabel: String, token: [UInt8])]

    public init(tokens: [(manifestLabel: String, token: [UInt8])]) {
        self.tokens = tokens
    }

    public func content() throws -> AssertionContent {
        .cbor(.map(tokens.map { CBOR.Pair(.text($0.manifestLabel), .bytes($0.token)) }))
    }
}
