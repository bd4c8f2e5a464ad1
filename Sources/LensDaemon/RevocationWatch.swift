import FoundationEssentials
import LensBus
import LensCore
import LensCrypto
import LensIdentity
import LensNetwork
import LensSystem

/// Asks the CA's OCSP responder about the device certificate: at start, then every
/// `ocsp-interval`, and sooner (0.5 s doubling, at most the interval) while none answers. A
/// revoked certificate stops capture for good — nothing is signed from that moment; under
/// `ocsp = required` so does having no good answer. A good answer is stapled into what is
/// signed while it is current, so verifiers need no network.
final class RevocationWatch {  // confined to the loop thread; asks run on `worker`
    enum Finding: Equatable {
        case unchecked
        case good(OCSPStatus)
        case revoked(at: Date, reason: Int?)
        /// The responder does not know the certificate, or none gave a usable answer.
        case unavailable(String)
    }

    private(set) var finding = Finding.unchecked
    let policy: RevocationPolicy
    private let client: OCSPClient
    private let certificate: Certificate, issuer: Certificate, anchors: [Certificate]
    private let interval: Duration
    private let loop: any LoopExecutor
    private let changed: (_ old: Finding) -> Void
    private let worker = SerialWorker(name: "lensd-ocsp-check")
    private var backoff = ReconnectBackoff()
    private var timer: (any Cancellable)?

    /// nil when the identity has no certificate or no issuer to ask about.
    init?(identity: DeviceIdentity, client: OCSPClient, policy: RevocationPolicy, interval: Duration, loop: any LoopExecutor,
          changed: @escaping (_ old: Finding) -> Void) {
        guard let certificate = identity.certificate, let anchor = identity.trustAnchor else { return nil }
        self.certificate = certificate
        issuer = identity.certificateChain.dropFirst().first ?? anchor
        anchors = [anchor]
        self.client = client
        self.policy = policy
        self.interval = interval
        self.loop = loop
        self.changed = changed
    }

    func start() { ask() }

    func stop() {
        timer?.cancel()
        worker.stop()
    }

    var isRevoked: Bool {
        if case .revoked = finding { return true }
        return false
    }

    /// Why nothing may be signed now, if so.
    var problem: String? {
        switch finding {
        case .good: return nil
        case .revoked(let at, let reason):
            let why = reason.map { " (\(Self.reasonNames[$0] ?? "reason \($0)"))" } ?? ""
            return "the device certificate was revoked at \(at.ISO8601Format())\(why), its CA's OCSP responder says; enroll the device again"
        case .unchecked:
            return policy == .required ? "waiting for the CA's OCSP responder to confirm the device certificate (ocsp = required)" : nil
        case .unavailable(let why):
            return policy == .required ? "the device certificate's revocation status is unknown (ocsp = required): \(why)" : nil
        }
    }

    /// The good answer, while it is current: what a signature staples.
    func staple(at now: Date) -> [UInt8]? {
        guard case .good(let status) = finding, status.nextUpdate.map({ $0 > now }) ?? true else { return nil }
        return status.der
    }

    private func ask() {
        timer = nil
        let client = client, certificate = certificate, issuer = issuer, anchors = anchors, back = loop.confine(self)
        worker.submit {
            let result = Result { try client.status(of: certificate, issuer: issuer, anchors: anchors) }
            back.post { $0.answered(result) }
        }
    }

    private func answered(_ result: Result<OCSPStatus, Error>) {
        let found: Finding
        switch result {
        case .success(let status):
            switch status.verdict {
            case .good: found = .good(status)
            case .revoked(let at, let reason): found = .revoked(at: at, reason: reason)
            case .unknown: found = .unavailable("the OCSP responder does not know the device certificate")
            }
        case .failure(let error): found = .unavailable("\(error)")
        }
        let old = finding
        finding = found
        if found != old { changed(old) }
        switch found {
        case .revoked: return  // for good: nothing to ask any more
        case .good:
            backoff.reset()
            timer = loop.schedule(after: interval) { [weak self] in self?.ask() }
        case .unavailable, .unchecked:
            timer = loop.schedule(after: min(backoff.next(), interval)) { [weak self] in self?.ask() }
        }
    }

    /// RFC 5280 CRLReason names.
    private static let reasonNames = [0: "unspecified", 1: "keyCompromise", 2: "cACompromise", 3: "affiliationChanged",
                                      4: "superseded", 5: "cessationOfOperation", 6: "certificateHold", 8: "removeFromCRL",
                                      9: "privilegeWithdrawn", 10: "aACompromise"]
}
