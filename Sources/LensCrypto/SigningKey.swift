/// A private key that signs wherever it lives: in this process (`PrivateKey`), in a PKCS#11
/// token, in a TPM. Whoever signs with it learns only its public half.
public protocol SigningKey: Sendable {
    var publicKey: PublicKey { get }
    /// ECDSA over `digest(message)`; IEEE P1363 r‖s, each coordinate left-padded to the curve's size.
    func signECDSA(_ message: [UInt8], digest: DigestAlgorithm) throws -> [UInt8]
}

extension PrivateKey: SigningKey {}
