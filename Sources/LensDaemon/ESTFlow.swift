import FoundationEssentials
import LensBus
import LensCore
import LensIdentity
import LensNetwork
import LensSystem

/// `enrollment = est` in the daemon: enrolls when there is no usable certificate, renews once
/// the certificate is within renew-before of its expiry, and after a failure tries again with a
/// backoff (10 s doubling to 30 min) — never sooner, never in a busy loop. Capture is gated by the
/// identity alone, so it goes on with the current certificate while a renewal fails. Times are
/// the daemon's clock (LensClock), so in-process tests step through renewals.
final class ESTFlow {  // confined to the loop thread; the exchanges run on `worker`
    /// What `lensctl enroll status` shows: Manager.ESTState.
    struct Status: Equatable {
        var lastAttempt: Date?
        var nextAttempt: Date?
        /// Why the last attempt gave no certificate (nil after a success).
        var lastError: String?
    }

    /// What the flow needs to know of the identity: whether it signs now, and from when it is due for renewal.
    struct Identity {
        var enrolled: Bool
        var renewAfter: Date?
    }

    private(set) var status = Status()
    private let enrollment: ESTEnrollment
    private let clock: LensClock
    private let loop: any LoopExecutor
    private let identity: () -> Identity
    /// A chain was installed: the identity must be loaded again.
    private let installed: () -> Void
    private let statusChanged: () -> Void
    private let worker = SerialWorker(name: "lensd-est")
    private var backoff = ReconnectBackoff(first: .seconds(10), longest: .seconds(1800))
    private var timer: (any Cancellable)?

    init(_ enrollment: ESTEnrollment, clock: LensClock, loop: any LoopExecutor, identity: @escaping () -> Identity,
         installed: @escaping () -> Void, statusChanged: @escaping () -> Void) {
        self.enrollment = enrollment
        self.clock = clock
        self.loop = loop
        self.identity = identity
        self.installed = installed
        self.statusChanged = statusChanged
    }

    func start() { plan() }

    func stop() {
        timer?.cancel()
        timer = nil
        worker.stop()
    }

    /// Enrolls now without a usable certificate; otherwise waits for the renewal time.
    private func plan() {
        timer = nil
        let now = clock.wall(), current = identity()
        guard current.enrolled else { return attempt(renewing: false, at: now) }
        guard let renewAfter = current.renewAfter else { return }
        if renewAfter <= now { return attempt(renewing: true, at: now) }
        wait(until: renewAfter, from: now)
    }

    private func attempt(renewing: Bool, at now: Date) {
        status.lastAttempt = now
        status.nextAttempt = nil
        statusChanged()
        let enrollment = enrollment, back = loop.confine(self)
        worker.submit {
            let result = Result { () throws(ESTFailure) -> ESTEnrollment.Renewal? in
                if renewing { return try enrollment.renew(now: now) }
                try enrollment.enroll(now: now)
                return nil
            }
            back.post { $0.finished(result, renewing: renewing) }
        }
    }

    private func finished(_ result: Result<ESTEnrollment.Renewal?, ESTFailure>, renewing: Bool) {
        let now = clock.wall()
        var outcome = result
        if case .success(let renewal) = result {
            Log.info("EST: " + (renewal.map(Self.describe) ?? "enrolled with the organization's CA"))
            installed()
            // The install checked the chain at the attempt's time; one that does not sign now, or
            // is due for renewal already (the CA issues for less than renew-before), must not
            // start the next attempt at once.
            let current = identity()
            if !current.enrolled {
                outcome = .failure(.refusedAnswer("the installed certificate does not sign at \(now.ISO8601Format())"))
            } else if let renewAfter = current.renewAfter, renewAfter <= now {
                outcome = .failure(.refusedAnswer("the CA issued a certificate already due for renewal: its lifetime is shorter than renew-before"))
            }
        }
        switch outcome {
        case .success:
            backoff.reset()
            status.lastError = nil
            plan()
        case .failure(let failure):
            status.lastError = failure.description
            let delay = backoff.next()
            let what = renewing ? "renewal" : "enrollment"
            Log.warning("EST \(what): \(failure); next attempt in \(delay.components.seconds) s"
                        + (renewing ? "; capture goes on with the current certificate" : ""))
            wait(until: now + Double(delay.components.seconds), from: now)
        }
        statusChanged()
    }

    private func wait(until date: Date, from now: Date) {
        status.nextAttempt = date
        let delay = Duration.milliseconds(Int64((date.timeIntervalSince(now) * 1000).rounded(.up)))
        timer = loop.schedule(after: delay) { [weak self] in self?.plan() }
    }

    private static func describe(_ renewal: ESTEnrollment.Renewal) -> String {
        switch renewal {
        case .newKey: "renewed by /simplereenroll with a new key; the old key is removed"
        case .sameKey: "renewed by /simplereenroll with the configured key"
        case .credential: "renewed by /simpleenroll with the credential: a token or TPM key cannot authenticate TLS through libcurl"
        }
    }
}
