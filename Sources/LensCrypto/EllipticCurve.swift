import COpenSSL

public enum EllipticCurve: String, Sendable, CaseIterable {
    case p256 = "P-256"
    case p384 = "P-384"
    case p521 = "P-521"

    /// Bytes per coordinate, and per half of a P1363 signature.
    public var coordinateSize: Int {
        switch self {
        case .p256: 32
        case .p384: 48
        case .p521: 66
        }
    }

    /// The digest a certificate signed by a key on this curve uses, so the hash is as strong as the key.
    var certificateDigest: DigestAlgorithm {
        switch self {
        case .p256: .sha256
        case .p384: .sha384
        case .p521: .sha512
        }
    }

    private var nid: Int32 {
        switch self {
        case .p256: NID_X9_62_prime256v1
        case .p384: NID_secp384r1
        case .p521: NID_secp521r1
        }
    }

    /// The curve of an EVP_PKEY; nil when it is not EC or not one of ours.
    init?(key: OpaquePointer) {
        guard EVP_PKEY_is_a(key, "EC") == 1 else { return nil }
        var name = [CChar](repeating: 0, count: 80)
        guard EVP_PKEY_get_group_name(key, &name, name.count, nil) == 1 else {
            ERR_clear_error()
            return nil
        }
        let nid = OBJ_sn2nid(name)
        guard let curve = Self.allCases.first(where: { $0.nid == nid }) else { return nil }
        self = curve
    }
}
