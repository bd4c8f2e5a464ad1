import C2PA
import FoundationEssentials
import LensCrypto
import LensStorage

/// The key and certificate lensd signs with, loaded once at startup; immutable afterwards.
/// Loading never fails: an unusable identity becomes a `state` other than `.enrolled` and a
/// `problem` sentence for logs and errors, and lensd keeps running with capture disabled.
public final class DeviceIdentity: Sendable {
    public let state: EnrollmentState
    /// What is wrong and what to do about it; nil when enrolled.
    public let problem: String?
    /// Non-nil only when `state` is `.enrolled`.
    public let signer: (any ClaimSigner)?
    /// The root verifiers should trust (GetTrustAnchor); present whenever it could be read.
    public let trustAnchor: Certificate?
    /// The device (leaf) certificate; present whenever it could be read, expired or not.
    public let certificate: Certificate?
    /// What manifests carry in x5chain: the leaf, then the intermediates (no self-issued root);
    /// empty when the chain could not be read.
    public let certificateChain: [Certificate]

    private init(state: EnrollmentState, problem: String?, signer: (any ClaimSigner)?, trustAnchor: Certificate?,
                 certificateChain: [Certificate]) {
        self.state = state
        self.problem = problem
        self.signer = signer
        self.trustAnchor = trustAnchor
        self.certificateChain = certificateChain
        certificate = certificateChain.first
    }

    /// With no key or chain configured, uses the embedded identity in `<state>/identity`, making
    /// it if that directory does not exist at all (the first start); see `EmbeddedIdentity`.
    /// With a configured key and chain, uses those and writes nothing.
    public static func load(_ configuration: IdentityConfiguration, now: Date = Date()) -> DeviceIdentity {
        let material: IdentityMaterial
        do {
            if configuration.enrollment.isOrganization {
                ESTEnrollment.finishInterruptedRenewal(configuration)
                material = try OrganizationIdentity.load(configuration)
            } else if configuration.usesConfiguredCredentials {
                material = try ConfiguredIdentity.load(configuration)
            } else {
                material = try EmbeddedIdentity.load(configuration, now: now)
            }
        } catch {
            return DeviceIdentity(state: error.state, problem: error.problem, signer: nil, trustAnchor: nil, certificateChain: [])
        }
        do {
            let signer = try material.makeSigner(now: now)
            return DeviceIdentity(state: .enrolled, problem: nil, signer: signer, trustAnchor: material.trustAnchor,
                                  certificateChain: material.signingChain)
        } catch {
            return DeviceIdentity(
                state: error.state, problem: error.problem, signer: nil, trustAnchor: material.trustAnchor,
                certificateChain: material.signingChain)
        }
    }

    public var certificateNotAfter: Date? {
        certificate?.notAfter
    }

    /// SHA-256 of the device certificate's DER, lowercase hex.
    public var fingerprint: String? {
        certificate.map { SHA256Hex.encode($0.sha256Fingerprint) }
    }

    /// The state at `now`, for the daemon's periodic check: an enrolled identity turns `.expired`
    /// once its certificate is no longer valid. The other states only change with a new `load`,
    /// since `signer` is fixed at load time.
    public func state(at now: Date) -> EnrollmentState {
        guard state == .enrolled, let certificate, IdentityMaterial.validityProblem(certificate, at: now) != nil else { return state }
        return .expired
    }
}
