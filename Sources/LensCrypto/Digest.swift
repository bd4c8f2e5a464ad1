import COpenSSL

/// One-shot hashing.
public enum Digest {
    public static func hash(_ bytes: [UInt8], algorithm: DigestAlgorithm = .sha256) -> [UInt8] {
        bytes.withUnsafeBytes { hash($0, algorithm: algorithm) }
    }

    public static func hash(_ bytes: UnsafeRawBufferPointer, algorithm: DigestAlgorithm = .sha256) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: algorithm.outputSize)
        // A built-in digest can only fail when memory allocation fails.
        guard EVP_Digest(bytes.baseAddress, bytes.count, &output, nil, algorithm.evpMD, nil) == 1 else {
            fatalError("\(CryptoError.openSSL("\(algorithm.rawValue) digest"))")
        }
        return output
    }
}
