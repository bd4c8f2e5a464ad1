import FoundationEssentials

/// An identity claims aggregation credential (CAWG identity 1.1 §8.1): a W3C verifiable credential
/// (data model 2.0) whose issuer vouches for the named actor's verified identities and for the
/// signer payload (`c2paAsset`). Read with the strictness of c2pa-rs's serde types: a field of the
/// wrong shape makes the credential unreadable (`cawg.ica.invalid_verifiable_credential`), never
/// ignored, so that lensd accepts no credential c2pa-rs refuses.
struct ClaimsAggregationCredential {
    var issuer: String
    var validFrom: Date?
    var validUntil: Date?
    /// The first credential subject's `c2paAsset`, hashes decoded from their base64 text.
    var signerPayload: SignerPayload
    /// The credential as read, for reports (c2pa-rs shows it in place of the assertion).
    var json: JSONValue

    init(json bytes: [UInt8]) throws {
        let object: Any
        do { object = try JSONParser.parse(bytes) } catch {
            throw C2PAError.malformed("the credential is not JSON: \(error)")
        }
        guard let vc = object as? [String: Any] else { throw C2PAError.malformed("the credential is not a JSON object") }
        let read = Fields(vc, "credential")
        _ = try read.nonEmptyList("@context") { try Fields.iri($0, "@context") }
        if vc["id"] != nil { _ = try read.uri("id") }
        _ = try read.nonEmptyList("type") { try Fields.string($0, "type") }
        issuer = try read.uri("issuer")
        validFrom = try read.optionalDate("validFrom")
        validUntil = try read.optionalDate("validUntil")
        guard let subjectValue = vc["credentialSubject"] else { throw C2PAError.malformed("credential has no credentialSubject") }
        let subjects = try (subjectValue as? [Any] ?? [subjectValue]).map { try Fields.object($0, "credentialSubject") }
        guard let subject = subjects.first else { throw C2PAError.malformed("credentialSubject is empty") }
        for subject in subjects {
            let fields = Fields(subject, "credentialSubject")
            _ = try fields.nonEmptyList("verifiedIdentities") { try Self.checkVerifiedIdentity($0) }
            _ = try Self.signerPayload(try fields.object("c2paAsset"))
        }
        signerPayload = try Self.signerPayload(try Fields(subject, "credentialSubject").object("c2paAsset"))
        json = JSONValue(any: vc)
    }

    /// `c2paAsset` as c2pa-rs reads it: each hash is the bytes of its base64 text (a JSON string
    /// or array of byte values), decoded; text that is not base64 decodes to bytes that match nothing.
    private static func signerPayload(_ asset: [String: Any]) throws -> SignerPayload {
        let fields = Fields(asset, "c2paAsset")
        let references = try fields.list("referenced_assertions") { item -> HashedURI in
            let reference = Fields(try Fields.object(item, "referenced_assertions"), "referenced_assertion")
            let text = try reference.byteString("hash")
            let hash = Data(base64Encoded: String(decoding: text, as: UTF8.self)).map(Array.init) ?? Array("invalid base64".utf8)
            return HashedURI(url: try reference.string("url"), hash: hash, algorithm: try reference.optionalString("alg"))
        }
        let roles = asset["role"] == nil ? [] : try fields.list("role") { try Fields.string($0, "role") }
        return SignerPayload(referencedAssertions: references, signatureType: try fields.string("sig_type"), roles: roles)
    }

    private static func checkVerifiedIdentity(_ value: Any) throws {
        let identity = Fields(try Fields.object(value, "verifiedIdentities"), "verified identity")
        _ = try identity.nonEmptyString("type")
        for key in ["name", "username", "address"] where identity.has(key) { _ = try identity.nonEmptyString(key) }
        if identity.has("uri") { _ = try identity.uri("uri") }
        guard try identity.optionalDate("verifiedAt") != nil else { throw C2PAError.malformed("verified identity has no verifiedAt") }
        let provider = Fields(try identity.object("provider"), "provider")
        _ = try provider.uri("id")
        _ = try provider.nonEmptyString("name")
    }
}

/// Typed reads of a JSON object's fields, each failure naming the field.
private struct Fields {
    let object: [String: Any]
    let context: String

    init(_ object: [String: Any], _ context: String) {
        (self.object, self.context) = (object, context)
    }

    /// Present and not null (serde's Option reads null as absent).
    func has(_ key: String) -> Bool { object[key] != nil && !(object[key] is JSONNull) }

    func string(_ key: String) throws -> String { try Self.string(object[key] as Any, "\(context).\(key)") }

    func optionalString(_ key: String) throws -> String? { has(key) ? try string(key) : nil }

    func nonEmptyString(_ key: String) throws -> String {
        let text = try string(key)
        guard !text.isEmpty else { throw C2PAError.malformed("\(context).\(key) is empty") }
        return text
    }

    func uri(_ key: String) throws -> String {
        let text = try string(key)
        guard Self.isURI(text, allowingUnicode: false) else { throw C2PAError.malformed("\(context).\(key) is not a URI") }
        return text
    }

    func object(_ key: String) throws -> [String: Any] { try Self.object(object[key] as Any, "\(context).\(key)") }

    func optionalDate(_ key: String) throws -> Date? {
        guard has(key) else { return nil }
        guard let date = Timestamps.parseRFC3339(try string(key)) else {
            throw C2PAError.malformed("\(context).\(key) is not an RFC 3339 date-time")
        }
        return date
    }

    func list<T>(_ key: String, _ element: (Any) throws -> T) throws -> [T] {
        guard let items = object[key] as? [Any] else { throw C2PAError.malformed("\(context).\(key) is not a list") }
        return try items.map(element)
    }

    func nonEmptyList<T>(_ key: String, _ element: (Any) throws -> T) throws -> [T] {
        let items = try list(key, element)
        guard !items.isEmpty else { throw C2PAError.malformed("\(context).\(key) is empty") }
        return items
    }

    /// serde_bytes: a string's UTF-8 bytes, or an array of byte values.
    func byteString(_ key: String) throws -> [UInt8] {
        if let text = object[key] as? String { return Array(text.utf8) }
        guard let items = object[key] as? [Any] else { throw C2PAError.malformed("\(context).\(key) is not a byte string") }
        return try items.map { item in
            guard let number = item as? Double, let byte = UInt8(exactly: number) else {
                throw C2PAError.malformed("\(context).\(key) holds something other than bytes")
            }
            return byte
        }
    }

    static func string(_ value: Any, _ what: String) throws -> String {
        guard let text = value as? String else { throw C2PAError.malformed("\(what) is not a string") }
        return text
    }

    static func object(_ value: Any, _ what: String) throws -> [String: Any] {
        guard let object = value as? [String: Any] else { throw C2PAError.malformed("\(what) is not an object") }
        return object
    }

    static func iri(_ value: Any, _ what: String) throws -> String {
        let text = try string(value, what)
        guard isURI(text, allowingUnicode: true) else { throw C2PAError.malformed("\(what) holds something other than an IRI") }
        return text
    }

    /// RFC 3986 (RFC 3987 with `allowingUnicode`): a scheme, then only characters a URI may hold.
    static func isURI(_ text: String, allowingUnicode: Bool) -> Bool {
        guard let colon = text.firstIndex(of: ":"), let first = text.first, first.isASCII, first.isLetter else { return false }
        let scheme = text[..<colon]
        guard scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return false }
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")
        return text[text.index(after: colon)...].unicodeScalars.allSatisfy { scalar in
            allowed.contains(Character(scalar)) || (allowingUnicode && scalar.value > 0x9F && !scalar.properties.isWhitespace)
        }
    }
}
