import COpenSSL

/// Streaming hash (EVP_MD_CTX). Not Sendable; one owner.
public final class Hasher {
    private let context: OpaquePointer
    private let algorithm: DigestAlgorithm
    private var isFinalized = false

    public init(_ algorithm: DigestAlgorithm = .sha256) {
        // A built-in digest can only fail to initialise when memory allocation fails.
        guard let context = EVP_MD_CTX_new() else {
            fatalError("\(CryptoError.openSSL("create \(algorithm.rawValue) hasher"))")
        }
        guard EVP_DigestInit_ex(context, algorithm.evpMD, nil) == 1 else {
            EVP_MD_CTX_free(context)
            fatalError("\(CryptoError.openSSL("create \(algorithm.rawValue) hasher"))")
        }
        self.context = context
        self.algorithm = algorithm
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        precondition(!isFinalized, "Hasher.update called after finalize")
        guard EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1 else {
            fatalError("\(CryptoError.openSSL("\(algorithm.rawValue) update"))")
        }
    }

    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// May be called once.
    public func finalize() -> [UInt8] {
        precondition(!isFinalized, "Hasher.finalize called twice")
        isFinalized = true
        var output = [UInt8](repeating: 0, count: algorithm.outputSize)
        guard EVP_DigestFinal_ex(context, &output, nil) == 1 else {
            fatalError("\(CryptoError.openSSL("\(algorithm.rawValue) finalize"))")
        }
        return output
    }
}

@available(*, unavailable)
extension Hasher: Sendable {}
