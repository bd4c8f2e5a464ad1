import LensCrypto

/// Signs claims. The claim code only sees this protocol, so a hardware signer (PKCS#11, TPM) fits
/// beside the software one without touching it.
public protocol ClaimSigner: Sendable {
    var algorithm: SigningAlgorithm { get }
    /// The signing certificate first, then intermediates; the trust anchor is left out.
    var certificateChain: [Certificate] { get }
    /// Signs `message` and returns the IEEE P1363 r‖s signature of `algorithm.signatureSize` bytes.
    func sign(_ message: [UInt8]) throws -> [UInt8]
    /// DER OCSP responses about the signing certificate, stapled into the signature's unprotected
    /// header (`rVals`) so that verifiers need no network; none by default.
    var ocspResponses: [[UInt8]] { get }
}

extension ClaimSigner {
    public var ocspResponses: [[UInt8]] { [] }
}

/// A signer whose signatures carry `ocspResponses` about its certificate: what a device fetched
/// from its CA's OCSP responder shortly before signing.
public struct StapledSigner: ClaimSigner {
    public let base: any ClaimSigner
    public let ocspResponses: [[UInt8]]

    public init(_ base: any ClaimSigner, ocspResponses: [[UInt8]]) {
        self.base = base
        self.ocspResponses = ocspResponses
    }

    public var algorithm: SigningAlgorithm { base.algorithm }
    public var certificateChain: [Certificate] { base.certificateChain }
    public func sign(_ message: [UInt8]) throws -> [UInt8] { try base.sign(message) }
}
