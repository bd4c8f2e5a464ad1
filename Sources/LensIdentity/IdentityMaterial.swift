import C2PA
import FoundationEssentials
import LensCrypto

/// A key, its certificate chain and the trust anchor, parsed but not yet checked, plus what to
/// tell the administrator if they turn out unusable.
struct IdentityMaterial {
    let key: any SigningKey
    /// Leaf first; never empty.
    let chain: [Certificate]
    let trustAnchor: Certificate
    /// The key's file or URI, for messages.
    let keyPath: String
    let chainPath: String
    let trustAnchorPath: String
    /// The end of every problem sentence, e.g. "remove /var/lib/lensd/identity to enroll …".
    let remedy: String

    var leaf: Certificate { chain[0] }

    /// What x5chain carries: the chain without a trailing self-issued root, which the spec says
    /// to leave out (verifiers bring their own anchor).
    var signingChain: [Certificate] {
        chain.count > 1 && chain[chain.count - 1].isSelfIssued ? Array(chain.dropLast()) : chain
    }

    /// A signer, when the key belongs to the leaf, the leaf fits the C2PA profile, the chain leads
    /// to the trust anchor, and the leaf is valid at `now`; otherwise why not.
    func makeSigner(now: Date) throws(IdentityFailure) -> any ClaimSigner {
        guard key.publicKey == leaf.publicKey else {
            throw IdentityFailure(.invalid, "the key \(keyPath) does not belong to the certificate in \(chainPath); \(remedy)")
        }
        if let violation = SigningCertificateProfile.violation(leaf) {
            throw IdentityFailure(.invalid, "the certificate in \(chainPath) cannot sign C2PA manifests: \(violation.description); \(remedy)")
        }
        // Time is left out here, as c2pa-rs does for the chain; the leaf's own validity is below.
        let intermediates = Array(chain.dropFirst())
        if let reason = ChainVerifier.verify(leaf: leaf, intermediates: intermediates, anchors: [trustAnchor], at: nil) {
            throw IdentityFailure(
                .invalid, "the certificate chain in \(chainPath) does not lead to the trust anchor \(trustAnchorPath): \(reason); \(remedy)")
        }
        if let problem = Self.validityProblem(leaf, at: now) {
            throw IdentityFailure(.expired, "\(problem); \(remedy)")
        }
        do {
            return try KeySigner(key: key, chain: signingChain)
        } catch {
            throw IdentityFailure(.invalid, "cannot sign with the key \(keyPath): \(error); \(remedy)")
        }
    }

    /// Why `certificate` cannot sign at `now` (c2pa-rs refuses both cases), or nil.
    static func validityProblem(_ certificate: Certificate, at now: Date) -> String? {
        if now > certificate.notAfter {
            return "the device certificate expired on \(certificate.notAfter.ISO8601Format())"
        }
        if now < certificate.notBefore {
            return "the device certificate is not valid before \(certificate.notBefore.ISO8601Format()) (is the system clock right?)"
        }
        return nil
    }
}
