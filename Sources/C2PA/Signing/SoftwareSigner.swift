import LensCrypto

/// A signer holding its private key in process memory (PEM/PKCS#8 key + PEM chain).
public struct SoftwareSigner: ClaimSigner {
    public let algorithm: SigningAlgorithm
    public let certificateChain: [Certificate]
    private let key: PrivateKey

    public init(key: PrivateKey, chain: [Certificate]) throws {
        guard let leaf = chain.first else { throw C2PAError.signing("the certificate chain is empty") }
        guard let curve = key.curve, let algorithm = SigningAlgorithm(curve: curve) else {
            throw C2PAError.signing("the key is not an ECDSA key on P-256, P-384 or P-521")
        }
        guard leaf.publicKey.subjectPublicKeyInfoDER == key.publicKey.subjectPublicKeyInfoDER else {
            throw C2PAError.signing("the key does not belong to the first certificate of the chain")
        }
        self.algorithm = algorithm
        self.certificateChain = chain
        self.key = key
    }

    public init(keyPEM: String, chainPEM: String) throws {
        try self.init(key: try PrivateKey(pem: keyPEM), chain: try Certificate.parsePEM(chainPEM))
    }

    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        try key.signECDSA(message, digest: algorithm.digest)
    }
}
