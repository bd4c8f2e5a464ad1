import LensCrypto

/// Signs claims with a device key and its certificate chain. Where the key lives — this process,
/// a PKCS#11 token, a TPM — is the `SigningKey`'s business; this only checks that the key
/// belongs to the chain's first certificate.
public struct KeySigner: ClaimSigner {
    public let algorithm: SigningAlgorithm
    public let certificateChain: [Certificate]
    private let key: any SigningKey

    public init(key: any SigningKey, chain: [Certificate]) throws {
        guard let leaf = chain.first else { throw C2PAError.signing("the certificate chain is empty") }
        guard let curve = key.publicKey.curve, let algorithm = SigningAlgorithm(curve: curve) else {
            throw C2PAError.signing("the key is not an ECDSA key on P-256, P-384 or P-521")
        }
        guard leaf.publicKey == key.publicKey else {
            throw C2PAError.signing("the key does not belong to the first certificate of the chain")
        }
        self.algorithm = algorithm
        self.certificateChain = chain
        self.key = key
    }

    /// A key held in this process (PEM, PKCS#8 or SEC1) and its PEM chain.
    public init(keyPEM: String, chainPEM: String) throws {
        try self.init(key: try PrivateKey(pem: keyPEM), chain: try Certificate.parsePEM(chainPEM))
    }

    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        try key.signECDSA(message, digest: algorithm.digest)
    }
}
