import C2PA
import FoundationEssentials
import LensBus
import LensCore
import LensCrypto
import LensIdentity
import LensSystem

/// The device identity and what may sign with it: the certificate's enrollment at the clock's
/// now, its revocation (OCSP), the renewal reminder, and the signer captures use.
final class SigningIdentity {
    private let configuration: Configuration
    private let clock: LensClock
    private let loop: any LoopExecutor
    private let host: MachineHost
    private let sessions: Sessions
    private let manager: ManagerSignals
    /// The signer captures use changed (a new certificate, revocation, a new OCSP answer).
    var signerChanged: ((any ClaimSigner)?, Certificate?) -> Void = { _, _ in }
    /// The identity's state or problem may have changed: the capture conditions too.
    var conditionsMayHaveChanged: () -> Void = {}
    /// Replaced only by `reload` (InstallCertificate).
    private(set) var identity: DeviceIdentity
    /// Over the current certificate, when its revocation is checked (ocsp).
    private var revocationWatch: RevocationWatch?
    private var enrollmentWatch: EnrollmentWatch
    /// Whether the journal has been told that this certificate is due for renewal.
    private var renewalAnnounced = false
    /// Enrolling and renewing over EST, with `enrollment = est`.
    private(set) var est: ESTFlow?

    init(_ identity: DeviceIdentity, configuration: Configuration, clock: LensClock, loop: any LoopExecutor, host: MachineHost,
         sessions: Sessions, manager: ManagerSignals) {
        self.configuration = configuration
        self.clock = clock
        self.loop = loop
        self.host = host
        self.sessions = sessions
        self.manager = manager
        self.identity = identity
        enrollmentWatch = EnrollmentWatch(announced: identity.state)
        revocationWatch = makeRevocationWatch()
        est = configuration.estEnrollment.map { enrollment in
            ESTFlow(enrollment, clock: clock, loop: loop,
                    identity: { [unowned self] in ESTFlow.Identity(enrolled: state == .enrolled, renewAfter: renewAfter) },
                    installed: { [unowned self] in reload() },
                    statusChanged: { [unowned self] in manager.propertiesChanged(["ESTState": Wire.est(est?.status)]) })
        }
    }

    func start() {
        revocationWatch?.start()
        est?.start()
        announceRenewal()
    }

    func stop() {
        revocationWatch?.stop()
        est?.stop()
    }

    /// The identity's state at the clock's now; revoked once OCSP said so.
    var state: EnrollmentState {
        EnrollmentWatch.state(of: identity, revoked: revocationWatch?.isRevoked == true, at: clock.wall())
    }

    /// Capture's `enrollment` condition: enrolled, and nothing keeps the certificate from signing.
    var mayCapture: Bool { state == .enrolled && revocationWatch?.problem == nil }

    /// What signs captures now: the identity's signer with its certificate's latest good OCSP
    /// answer stapled; nil when there is none, and once the certificate is revoked (or, under
    /// `ocsp = required`, while no responder has confirmed it).
    var signer: (any ClaimSigner)? {
        guard let base = identity.signer, revocationWatch?.problem == nil else { return nil }
        guard let staple = revocationWatch?.staple(at: clock.wall()) else { return base }
        return StapledSigner(base, ocspResponses: [staple])
    }

    /// Why `signer` is nil.
    var problem: String? {
        revocationWatch?.problem ?? identity.problem
    }

    /// From when the device certificate is due for renewal (renew-before ahead of its expiry).
    var renewAfter: Date? {
        identity.certificateNotAfter.map { $0 - TimeInterval(configuration.renewBefore.components.seconds) }
    }

    /// Loads the identity again after an enrollment changed it, and announces what changed.
    func reload() {
        identity = DeviceIdentity.load(configuration.identityConfiguration, now: clock.wall())
        renewalAnnounced = false
        revocationWatch?.stop()
        revocationWatch = makeRevocationWatch()
        revocationWatch?.start()
        announceSigner()
        manager.propertiesChanged(["CertificateNotAfter": Wire.time(identity.certificateNotAfter),
                                   "CertificateRenewAfter": Wire.time(renewAfter)])
        conditionsMayHaveChanged()
    }

    /// The periodic look: an enrollment change (the certificate expired) is logged and
    /// broadcast once, and a due renewal is logged once.
    func refresh() {
        announceRenewal()
        guard let state = enrollmentWatch.change(of: identity, revoked: revocationWatch?.isRevoked == true,
                                                 at: clock.wall()) else { return }
        if state == .enrolled {
            Log.info("capture enabled (enrollment): the device certificate is enrolled")
        } else {
            Log.warning("capture disabled (enrollment): the device certificate is \(state.rawValue)")
        }
        // Manager properties are nothing personal: their changes are broadcast.
        manager.propertiesChanged(["EnrollmentState": .string(state.rawValue)])
    }

    /// What else signs with what captures sign with (the re-stamp queue) follows.
    private func announceSigner() {
        signerChanged(signer, identity.trustAnchor)
    }

    /// The OCSP watch over the current certificate; nil when its revocation is not checked.
    private func makeRevocationWatch() -> RevocationWatch? {
        let configuration = configuration
        guard let check = configuration.revocationCheck(for: identity.certificate) else { return nil }
        return RevocationWatch(identity: identity, client: check.client, policy: check.policy, interval: configuration.ocspInterval,
                               loop: loop) { [weak self] _ in self?.revocationChanged() }
    }

    /// A revoked certificate signs nothing more: every session is told, a recording under way is
    /// stopped and kept unsigned.
    private func revocationChanged() {
        guard let watch = revocationWatch else { return }
        switch watch.finding {
        case .good(let status):
            Log.info("the device certificate is not revoked (OCSP answer of \(status.producedAt.ISO8601Format()))")
        case .revoked:
            let problem = watch.problem ?? "the device certificate was revoked"
            Log.error("capture disabled (enrollment): \(problem)")
            for session in sessions.all { session.failed(.enrollment(problem)) }
            host.transition { $0.stopRecording() }
        case .unavailable(let why):
            Log.warning("OCSP: \(why); " + (watch.policy == .required ? "capture disabled (ocsp = required)" : "capture goes on"))
        case .unchecked: break
        }
        announceSigner()
        conditionsMayHaveChanged()
    }

    /// Logs, once per certificate, that an enrolled certificate is due for renewal.
    private func announceRenewal() {
        let now = clock.wall()
        guard state == .enrolled, !renewalAnnounced, let renewAfter, now >= renewAfter,
              let notAfter = identity.certificateNotAfter else { return }
        renewalAnnounced = true
        let days = Int((notAfter.timeIntervalSince(now) / 86_400).rounded())
        let configuration = configuration
        let how = switch configuration.enrollment {
        case .organization: "lensctl enroll request, then lensctl enroll install the chain your CA issues"
        case .est: "lensd asks the EST server (est-url) by itself; lensctl enroll status shows how that goes"
        case .selfIssued: "with lensd stopped, remove \(configuration.stateDirectory)/identity (verifiers then need the new trust anchor)"
        }
        Log.warning("the device certificate expires \(notAfter.ISO8601Format()) (in \(days) days): renew it before then: \(how)")
    }
}
