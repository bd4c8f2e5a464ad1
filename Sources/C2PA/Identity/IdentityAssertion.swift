/// A CAWG identity assertion (`cawg.identity`, CAWG identity 1.1 §5): who vouches for the
/// manifest (a named actor), signing the signer payload with a credential of `sig_type`.
/// Read as c2pa-rs deserializes it: an assertion without these fields does not load, and the
/// manifest that holds it then fails to load (`assertion.required.missing`).
struct IdentityAssertion {
    var signerPayload: SignerPayload
    var signature: [UInt8]
    var pad1: [UInt8]
    var pad2: [UInt8]?

    init(cbor: CBOR) throws {
        guard cbor.mapPairs != nil, let payload = cbor["signer_payload"] else {
            throw C2PAError.malformed("identity assertion has no signer_payload")
        }
        signerPayload = try SignerPayload(cbor: payload)
        guard let signature = cbor["signature"].flatMap(Self.bytes), let pad1 = cbor["pad1"].flatMap(Self.bytes) else {
            throw C2PAError.malformed("identity assertion lacks its signature or pad1 byte string")
        }
        self.signature = signature
        self.pad1 = pad1
        if let pad2 = cbor["pad2"] {
            guard let bytes = Self.bytes(pad2) else { throw C2PAError.malformed("identity assertion pad2 is not a byte string") }
            self.pad2 = bytes
        }
    }

    /// serde_bytes takes a text string's bytes as well.
    static func bytes(_ item: CBOR) -> [UInt8]? {
        item.bytesValue ?? item.textValue.map { Array($0.utf8) }
    }
}

/// What the named actor signs: the assertions it vouches for, the signature type, its roles.
struct SignerPayload: Equatable {
    var referencedAssertions: [HashedURI]
    var signatureType: String
    var roles: [String] = []

    init(referencedAssertions: [HashedURI], signatureType: String, roles: [String]) {
        (self.referencedAssertions, self.signatureType, self.roles) = (referencedAssertions, signatureType, roles)
    }

    init(cbor: CBOR) throws {
        guard let references = cbor["referenced_assertions"]?.arrayValue, let type = cbor["sig_type"]?.textValue else {
            throw C2PAError.malformed("signer_payload lacks referenced_assertions or sig_type")
        }
        referencedAssertions = try references.map { item in
            guard let url = item["url"]?.textValue, let hash = item["hash"].flatMap(IdentityAssertion.bytes) else {
                throw C2PAError.malformed("a referenced assertion is not a hashed URI")
            }
            let algorithm = item["alg"]
            guard algorithm == nil || algorithm?.textValue != nil else { throw C2PAError.malformed("a referenced assertion's alg is not text") }
            return HashedURI(url: url, hash: hash, algorithm: algorithm?.textValue)
        }
        signatureType = type
        if let roles = cbor["role"] {
            guard let list = roles.arrayValue?.compactMap(\.textValue), list.count == roles.arrayValue?.count else {
                throw C2PAError.malformed("signer_payload role is not a list of text")
            }
            self.roles = list
        }
    }

    /// The bytes an X.509 identity signature covers: the payload serialized again in c2pa-rs's
    /// field order (url, alg, hash per reference; sig_type; role when there is one).
    var signedBytes: [UInt8] {
        var entries: [(String, CBOR)] = [
            ("referenced_assertions", .array(referencedAssertions.map { reference in
                .textMap([("url", .text(reference.url))] + (reference.algorithm.map { [("alg", CBOR.text($0))] } ?? [])
                    + [("hash", .bytes(reference.hash))])
            })),
            ("sig_type", .text(signatureType)),
        ]
        if !roles.isEmpty { entries.append(("role", .array(roles.map(CBOR.text)))) }
        return CBOR.textMap(entries).encoded(sortingKeys: false)
    }
}
