import COpenSSL

/// DER encoding of the few ASN.1 types lensd composes itself (the CSR's attestation evidence);
/// object identifiers are encoded by OpenSSL.
enum DERWriter {
    static func sequence(_ parts: [[UInt8]]) -> [UInt8] { element(tag: 0x30, parts.flatMap { $0 }) }

    static func octetString(_ bytes: [UInt8]) -> [UInt8] { element(tag: 0x04, bytes) }

    static func objectIdentifier(_ dotted: String) throws -> [UInt8] {
        let operation = "encode object identifier \(dotted)"
        guard let object = OBJ_txt2obj(dotted, 1) else { throw CryptoError.openSSL(operation) }
        defer { ASN1_OBJECT_free(object) }
        return try DER.encode(operation) { i2d_ASN1_OBJECT(object, $0) }
    }

    /// Tag, definite length (short form below 128, else long form), contents.
    static func element(tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        if contents.count < 0x80 {
            length = [UInt8(contents.count)]
        } else {
            var remaining = contents.count
            while remaining > 0 {
                length.insert(UInt8(remaining & 0xFF), at: 0)
                remaining >>= 8
            }
            length.insert(0x80 | UInt8(length.count), at: 0)
        }
        return [tag] + length + contents
    }
}
