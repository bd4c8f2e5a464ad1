import FoundationEssentials
import LensCrypto

/// The issuer of an identity claims aggregation credential, a DID, resolved to its public key as
/// c2pa-rs 0.91 resolves one: `did:jwk` from the identifier itself (an Ed25519 JWK), `did:web`
/// over HTTPS — which lensd never does: the verifier stays offline, so a did:web issuer is
/// `cawg.ica.did_unavailable`, as c2pa-rs reports it when it cannot fetch the document. Other
/// methods (`did:key` among them) c2pa-rs does not support, nor does lensd.
struct DecentralizedIdentifier {
    /// "did:jwk:…" without any "#fragment".
    let primary: String
    let method: String
    let methodSpecificID: String

    enum ResolutionError: Error {
        /// Not a DID, or a method c2pa-rs does not resolve: `cawg.ica.invalid_issuer`.
        case unsupported(String)
        /// The DID document cannot be had offline: `cawg.ica.did_unavailable`.
        case unavailable(String)
        /// The DID names no usable key: `cawg.ica.invalid_did_document`.
        case invalidDocument(String)
    }

    /// c2pa-rs's DID syntax check: `did:` + method + `:` + at least one identifier character.
    init(_ text: String) throws(ResolutionError) {
        let bytes = Array(text.utf8)
        func isMethodCharacter(_ b: UInt8) -> Bool { (97...122).contains(b) || (48...57).contains(b) }
        func isIDCharacter(_ b: UInt8) -> Bool {
            (65...90).contains(b) || (97...122).contains(b) || (48...57).contains(b) || Array("/.%#?_-".utf8).contains(b)
        }
        guard bytes.count > 4, Array(bytes[0..<4]) == Array("did:".utf8),
              let separator = bytes[4...].firstIndex(of: UInt8(ascii: ":")), separator > 4,
              bytes[4..<separator].allSatisfy(isMethodCharacter), separator + 1 < bytes.count, isIDCharacter(bytes[separator + 1])
        else { throw .unsupported("issuer \(text) is not a DID") }
        primary = String(text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
        method = String(decoding: bytes[4..<separator], as: UTF8.self)
        methodSpecificID = String(primary.dropFirst(5 + method.count))
    }

    /// The issuer's Ed25519 key.
    func publicKey() throws(ResolutionError) -> PublicKey {
        switch method {
        case "jwk":
            guard let json = Base64URL.decode(methodSpecificID, padding: .canonical) else {
                throw .invalidDocument("did:jwk is not base64url")
            }
            return try JSONWebKey.ed25519Key(json)
        case "web":
            throw .unavailable("\(primary): lensd does not fetch DID documents")
        default:
            throw .unsupported("unsupported DID method \(method)")
        }
    }
}

/// An OKP JSON Web Key as c2pa-rs reads one (`kty` OKP only, curve Ed25519 only).
enum JSONWebKey {
    static func ed25519Key(_ json: [UInt8]) throws(DecentralizedIdentifier.ResolutionError) -> PublicKey {
        guard let object = try? JSONParser.parse(json), let jwk = object as? [String: Any],
              jwk["kty"] as? String == "OKP", let curve = jwk["crv"] as? String, let x = jwk["x"] as? String
        else { throw .invalidDocument("the DID's JWK is not an OKP key") }
        if let algorithm = jwk["alg"] {
            guard let name = algorithm as? String, ["EdDSA", "None"].contains(name) else {
                throw .invalidDocument("the DID's JWK names algorithm \(algorithm)")
            }
        }
        guard curve == "Ed25519" else { throw .invalidDocument("unsupported OKP curve \(curve)") }
        guard let raw = Base64URL.decode(x, padding: .indifferent), let key = try? PublicKey(ed25519: raw) else {
            throw .invalidDocument("the DID's JWK holds no Ed25519 public key")
        }
        return key
    }
}

/// RFC 4648 §5 base64url.
enum Base64URL {
    enum Padding {
        /// Padded exactly as needed (the base64 crate's URL_SAFE).
        case canonical
        /// With or without padding.
        case indifferent
    }

    static func decode(_ text: String, padding: Padding) -> [UInt8]? {
        guard padding == .indifferent || text.utf8.count % 4 == 0 else { return nil }
        var standard = text.replacing("-", with: "+").replacing("_", with: "/")
        guard !text.contains("+"), !text.contains("/") else { return nil }
        if padding == .indifferent, !standard.hasSuffix("=") {
            standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        }
        return Data(base64Encoded: standard).map(Array.init)
    }
}
