import COpenSSL

public enum DigestAlgorithm: String, Sendable, CaseIterable {
    case sha256, sha384, sha512

    /// Output length in bytes.
    public var outputSize: Int {
        switch self {
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// OpenSSL's built-in method table; static, so it is never freed and may be shared across threads.
    var evpMD: OpaquePointer {
        switch self {
        case .sha256: EVP_sha256()
        case .sha384: EVP_sha384()
        case .sha512: EVP_sha512()
        }
    }
}
