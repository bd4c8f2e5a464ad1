import COpenSSL

/// Conversion between OpenSSL's DER ECDSA-Sig-Value and the IEEE P1363 r‖s form COSE uses.
enum ECDSASignature {
    static func raw(fromDER der: [UInt8], coordinateSize: Int) throws -> [UInt8] {
        let operation = "convert ECDSA signature"
        let signature = try DER.decode(der, operation, { d2i_ECDSA_SIG(nil, $0, $1) }, free: ECDSA_SIG_free)
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var raw = [UInt8](repeating: 0, count: 2 * coordinateSize)
        let written = raw.withUnsafeMutableBufferPointer { buffer in
            let size = Int32(coordinateSize)
            return (BN_bn2binpad(r, buffer.baseAddress, size), BN_bn2binpad(s, buffer.baseAddress! + coordinateSize, size))
        }
        guard written == (Int32(coordinateSize), Int32(coordinateSize)) else {
            throw CryptoError(operation: operation, reason: "r or s is wider than the curve")
        }
        return raw
    }

    /// nil for anything that is not exactly two coordinates long.
    static func der(fromRaw raw: [UInt8], coordinateSize: Int) -> [UInt8]? {
        guard raw.count == 2 * coordinateSize else { return nil }
        let size = Int32(coordinateSize)
        let halves = raw.withUnsafeBufferPointer { buffer in
            (BN_bin2bn(buffer.baseAddress, size, nil), BN_bin2bn(buffer.baseAddress! + coordinateSize, size, nil))
        }
        guard let r = halves.0, let s = halves.1, let signature = ECDSA_SIG_new() else {
            BN_free(halves.0)
            BN_free(halves.1)
            return nil
        }
        defer { ECDSA_SIG_free(signature) }
        // set0 takes ownership of r and s only when it succeeds.
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        return try? DER.encode("encode ECDSA signature") { i2d_ECDSA_SIG(signature, $0) }
    }
}
