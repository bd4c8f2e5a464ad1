import LensCrypto

/// Signs claims. The claim code only sees this protocol, so a hardware signer (PKCS#11, TPM) fits
/// beside the software one without touching it.
public protocol ClaimSigner: Sendable {
    var algorithm: SigningAlgorithm { get }
    /// The signing certificate first, then intermediates; the trust anchor is left out.
    var certificateChain: [Certificate] { get }
    /// Signs `message` and returns the IEEE P1363 r‖s signature of `algorithm.signatureSize` bytes.
    func sign(_ message: [UInt8]) throws -> [UInt8]
}
