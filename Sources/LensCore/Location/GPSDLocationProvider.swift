import CGPS
import FoundationEssentials
import Glibc
import LensNetwork
import LensSystem

/// Watches gpsd through libgps on the daemon's event loop.
///
/// Loop-confined: create it, call every member and read every property on the loop thread;
/// `onChange` runs there too. It never blocks the loop: gpsd's socket is read only when it is
/// readable, without blocking. When gpsd is absent or goes away it retries after 0.5 s,
/// doubling up to 8 s, and says why in `.connecting`. A fix older than `staleAfter` (by
/// `clock`) is as good as none; a timer notices that even when gpsd falls silent.
public final class GPSDLocationProvider: @unchecked Sendable {  // loop-confined: every member is used on the event loop thread only
    /// Called on the loop thread whenever `status` changes, including a fix going stale. A new
    /// report that only repeats the current reading (gpsd sends several per receiver epoch)
    /// is not a change.
    public var onChange: ((LocationStatus) -> Void)?

    private let host: String
    private let port: String
    private let scheduler: EventScheduler
    private let staleSeconds: Double
    private let clock: @Sendable () -> Date

    private enum Link {
        case stopped
        case waiting(reason: String, denied: Bool, retry: ScheduledEvent)
        case connected(GPSDConnection)
    }

    private var link = Link.stopped
    private var fix: LocationFix?
    private var staleCheck: ScheduledEvent?
    private var backoff = ReconnectBackoff()
    private var published = LocationStatus.disabled

    /// - Parameters:
    ///   - clock: the time fixes are stamped with on receipt and aged by; tests inject one.
    public init(
        host: String, port: String, scheduler: EventScheduler, staleAfter: Duration = .seconds(5),
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.host = host
        self.port = port
        self.scheduler = scheduler
        self.staleSeconds = staleAfter / .seconds(1)
        self.clock = clock
    }

    public var status: LocationStatus {
        switch link {
        case .stopped: .disabled
        case .waiting(let reason, false, _): .connecting(reason)
        case .waiting(let reason, true, _): .permissionDenied(reason)
        case .connected: currentFix.map(LocationStatus.fix) ?? .noFix
        }
    }

    /// The fix if it is fresh, else nil.
    public var currentFix: LocationFix? {
        guard let fix, isFresh(age: age(of: fix)) else { return nil }
        return fix
    }

    /// Connects now (or schedules a retry); does nothing if already started.
    public func start() {
        guard case .stopped = link else { return }
        backoff.reset()
        connect()
        publish()
    }

    /// Disconnects, forgets the fix and cancels every timer; `status` becomes `.disabled`.
    public func stop() {
        link = .stopped
        forgetFix()
        publish()
    }

    private var endpoint: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    private func connect() {
        let connection: GPSDConnection
        do {
            connection = try GPSDConnection.open(host: host, port: port)
        } catch {
            // libgps says only that it could not connect; the system may have refused it.
            if let refusal = ConnectProbe.failure(host: host, port: port), ConnectProbe.isPermissionDenied(refusal) {
                retryLater(because: "lensd may not connect to gpsd at \(endpoint) (\(refusal)): allow it in the firewall "
                    + "or in lensd.service's IPAddressAllow=", denied: true)
            } else {
                retryLater(because: "gpsd at \(endpoint) is not reachable (\(error))")
            }
            return
        }
        do {
            try connection.watch(on: scheduler) { [weak self] in self?.readable() }
            link = .connected(connection)
        } catch {
            retryLater(because: "cannot watch the connection to gpsd at \(endpoint) (\(error))")
        }
    }

    private func retryLater(because reason: String, denied: Bool = false) {
        let delay = backoff.next()
        let seconds = delay / .seconds(1)
        let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        let retry = scheduler.schedule(after: delay) { [weak self] in
            self?.connect()
            self?.publish()
        }
        link = .waiting(reason: "\(reason); retrying in \(shown) s", denied: denied, retry: retry)
    }

    private func readable() {
        guard case .connected(let connection) = link else { return }
        let batch = connection.drain()
        if batch.receivedReports { backoff.reset() }
        if let tpv = batch.lastTPV { accept(tpv) }
        if let lostErrno = batch.lostErrno {
            forgetFix()
            retryLater(
                because: lostErrno == 0
                    ? "gpsd at \(endpoint) closed the connection"
                    : "lost the connection to gpsd at \(endpoint) (\(String(cString: strerror(lostErrno))))")
        }
        publish()
    }

    /// A TPV without a usable position (no fix, no time yet) replaces the fix with none.
    private func accept(_ tpv: gps_fix_t) {
        fix = LocationFix(gpsd: tpv, receivedAt: clock())
        if fix != nil, staleCheck == nil {
            checkStaleness(in: staleSeconds)
        }
    }

    /// One pending timer at a time: when it fires it either drops a fix that has gone stale or
    /// re-arms for the moment the current one will.
    private func checkStaleness(in seconds: Double) {
        staleCheck = scheduler.schedule(after: .seconds(seconds)) { [weak self] in
            self?.staleCheckFired()
        }
    }

    private func staleCheckFired() {
        staleCheck = nil
        guard let fix else { return }
        let age = age(of: fix)
        if isFresh(age: age) {
            checkStaleness(in: staleSeconds - age)
        } else {
            forgetFix()
            publish()
        }
    }

    private func forgetFix() {
        fix = nil
        staleCheck = nil
    }

    private func age(of fix: LocationFix) -> Double {
        clock().timeIntervalSince(fix.receivedAt)
    }

    /// A negative age means the clock was set back since the fix arrived (e.g. NTP's first
    /// correction at boot); counting it as fresh could keep a silent receiver's fix alive for
    /// as long as the jump, so it counts as stale. The next report is fresh again.
    private func isFresh(age: Double) -> Bool {
        age >= 0 && age < staleSeconds
    }

    private func publish() {
        let current = status
        guard !current.isSameReading(as: published) else { return }
        published = current  // before the callback, which may call stop() and publish again
        onChange?(current)
    }
}

extension LocationStatus {
    /// Equal apart from the receive time of a fix: gpsd repeats an epoch's fix in several
    /// reports, and listeners care about new readings, not new receipts.
    fileprivate func isSameReading(as other: LocationStatus) -> Bool {
        guard case .fix(var mine) = self, case .fix(let theirs) = other else { return self == other }
        mine.receivedAt = theirs.receivedAt
        return mine == theirs
    }
}
