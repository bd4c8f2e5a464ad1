import FoundationEssentials
import Dispatch
import LensStorage
import LensSystem
import Glibc
import Synchronization

/// The persistent upload queue. Results enter it once stored (`enqueue`, on the caller's thread:
/// the record is on disk when it returns); one dedicated thread sends them one at a time, in the
/// order they came, and retries transient failures with backoff. Capture never waits for it.
///
/// Delivery is at least once and always whole: a record leaves the queue only after a 2xx, so an
/// upload cut short (network, server, SIGKILL of lensd) is sent again from its first byte to the
/// same URL, which a PUT replaces rather than duplicates.
public final class Outbox: Sendable {
    public enum Event: Sendable {
        case delivered(OutboxRecord, url: String, status: Int)
        /// A permanent failure: kept locally, not retried until asked. `error`: see `UploadError`.
        case failed(OutboxRecord, error: String, message: String)
        /// The summary after any change (Manager.OutboxState).
        case changed(OutboxSummary)
    }

    public let settings: OutboxSettings
    /// Its wall time dates records and their next attempts.
    private let clock: LensClock
    private let journal: RecordJournal<OutboxRecord>
    private let onEvent: @Sendable (Event) -> Void
    private let state: Mutex<State>
    /// Signalled after every change the thread may be waiting for (a record due, `stopping`).
    private let changed = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// Raised by `stop` to abort a transfer in flight.
    private let abort = AbortSignal()

    private struct State {
        var records: [String: OutboxRecord] = [:]
        var lastError = ""
        var stopping = false
    }

    /// Loads what `directory` (`<state>/outbox`) holds from an earlier run and starts the thread.
    public init(settings: OutboxSettings, directory: String, clock: LensClock = .system,
                onEvent: @escaping @Sendable (Event) -> Void, onDamagedRecord: (String, Error) -> Void = { _, _ in }) throws {
        self.settings = settings
        self.clock = clock
        self.onEvent = onEvent
        journal = try RecordJournal(directory: directory, purpose: "the outbox")
        var state = State()
        for record in journal.load(onDamaged: onDamagedRecord) { state.records[record.name] = record }
        self.state = Mutex(state)
        Threads.start(named: "lensd-outbox") { [self] in run() }
    }

    /// Queues a stored result; durable when it returns. Throws when the record cannot be written
    /// (the disk is full): the result is then not queued.
    public func enqueue(_ stored: StoredResult, fileExtension: String) throws {
        try put(OutboxRecord(stored, fileExtension: fileExtension, queuedAt: now))
    }

    /// The file of `stored` changed (a time-stamp was added later): the new bytes are what is
    /// delivered, whether the old ones were already delivered, are waiting, or are being sent now
    /// (an attempt in flight then does not count).
    public func enqueueAgain(_ stored: StoredResult, fileExtension: String) throws {
        try put(OutboxRecord(stored, fileExtension: fileExtension, queuedAt: now))
    }

    private func put(_ fresh: OutboxRecord) throws {
        try state.withLock { state in
            var record = fresh
            if let old = state.records[record.name] {
                record.generation = old.generation + 1
                record.queuedAt = old.queuedAt
            }
            try journal.save(record)
            state.records[record.name] = record
            announce(state)
        }
        changed.signal()
    }

    /// Makes the matching records due now (failed ones too): `uid` nil means everyone's, `name`
    /// nil every result. Returns how many.
    @discardableResult
    public func retry(uid: UInt32?, name: String?) -> Int {
        let count = state.withLock { state in
            var count = 0
            for var record in state.records.values
            where (uid == nil || record.uid == uid) && (name == nil || record.name == name) {
                record.state = .queued
                record.nextAttempt = 0
                try? journal.save(record)
                state.records[record.name] = record
                count += 1
            }
            if count > 0 { announce(state) }
            return count
        }
        if count > 0 { changed.signal() }
        return count
    }

    /// The records of `uid` (nil: all), in queue order.
    public func records(uid: UInt32?) -> [OutboxRecord] {
        state.withLock { state in
            state.records.values.filter { uid == nil || $0.uid == uid }.sorted(by: Self.queueOrder)
        }
    }

    public var summary: OutboxSummary {
        state.withLock { currentSummary($0) }
    }

    /// Aborts a transfer in flight (it is sent again whole next time) and stops the thread.
    public func stop() {
        state.withLock { $0.stopping = true }
        abort.raise()
        changed.signal()
        finished.wait()
    }

    // MARK: The upload thread

    private enum Next {
        case send(OutboxRecord)
        /// Until `changed` is signalled, or at the latest until the wall-clock time given.
        case wait(until: Double?)
        case stop
    }

    private func run() {
        while true {
            let next = state.withLock { state -> Next in
                guard !state.stopping else { return .stop }
                let now = self.now
                let waiting = state.records.values.filter { $0.state == .queued }
                if let due = waiting.filter({ $0.nextAttempt <= now }).min(by: Self.queueOrder) { return .send(due) }
                return .wait(until: waiting.map(\.nextAttempt).min())
            }
            switch next {
            case .stop:
                finished.signal()
                return
            case .send(let due):
                let outcome = attempt(due)
                state.withLock { state in
                    if !state.stopping { settle(due, outcome, in: &state) }
                }
            case .wait(until: let wake?):
                // A signal that came meanwhile (or the one being waited for) only means: look again.
                _ = changed.wait(timeout: .now() + max(0, wake - now))
            case .wait(until: nil):
                changed.wait()
            }
        }
    }

    /// Sends the record's file, off the lock: the verdict, and the record with the size and
    /// SHA-256 of what was sent.
    private func attempt(_ record: OutboxRecord) -> (UploadVerdict, OutboxRecord) {
        var record = record
        let file: FileDescriptor
        do { file = try FileDescriptor.open(record.path, O_RDONLY | O_NOFOLLOW) } catch {
            guard error.errno == .notFound else { return (.transient("reading the local file: \(error)", retryAfter: nil), record) }
            return (.permanent(error: UploadError.missing, message: "the local file is gone (deleted before it could be sent)"), record)
        }
        do {
            let size = try file.status().size
            guard size <= settings.maxBytes else {
                return (.permanent(error: UploadError.tooLarge,
                                   message: "\(size) bytes is over upload-max-bytes (\(settings.maxBytes)); kept locally"), record)
            }
            if record.sha256 == nil || record.size != size {
                // A video is published before it is hashed; hashing here keeps that off the capture path.
                record.sha256 = try SHA256Hex.digest(file)
                record.size = size
                try file.seek(to: 0)
            }
            let url = UploadURL.expand(settings.urlTemplate, name: record.name, fileExtension: record.fileExtension)
            let deadline = settings.attemptDeadline(forSize: size)
            let upload = HTTPUpload(url: url, headers: headers(for: record), caFile: settings.caFile, abort: abort,
                                    deadlineSeconds: deadline)
            let started = ContinuousClock.now
            // libcurl ends the attempt at the deadline, to the millisecond: a failure then is its doing.
            do {
                return (UploadVerdict.of(try upload.send(file, size: size)), record)
            } catch let failure as HTTPUpload.TransportFailure where !failure.isTLS && ContinuousClock.now - started >= .seconds(deadline * 0.99) {
                return (.transient("the attempt took its whole deadline of \(Int(deadline.rounded())) s (upload-timeout): \(failure.message)", retryAfter: nil), record)
            }
        } catch let failure as HTTPUpload.TransportFailure {
            return (.transient(failure.isTLS ? "TLS: \(failure.message)" : failure.message, retryAfter: nil), record)
        } catch {
            return (.transient("\(error)", retryAfter: nil), record)
        }
    }

    private func headers(for record: OutboxRecord) -> [String] {
        let hex = record.sha256 ?? ""
        var headers = [
            "Content-Type: \(record.mime)",
            "Digest: sha-256=\(Data(Self.bytes(hex: hex)).base64EncodedString())",
            "Content-SHA256: \(hex)",
        ]
        if let authorization = settings.authorization { headers.append("Authorization: \(authorization)") }
        return headers
    }

    /// Under the lock: records what the attempt of `sent` (as it was when taken) came to.
    private func settle(_ sent: OutboxRecord, _ outcome: (UploadVerdict, OutboxRecord), in state: inout State) {
        let (verdict, attempted) = outcome
        // Re-enqueued meanwhile: the newer bytes are still to be sent, whatever this attempt did.
        guard var record = state.records[sent.name], record.generation == sent.generation else { return }
        record.sha256 = attempted.sha256
        record.size = attempted.size
        record.attempts += 1
        switch verdict {
        case .delivered(let status):
            state.lastError = ""
            state.records[record.name] = nil
            do { try journal.remove(record.name) } catch { state.lastError = "\(error)" }
            let url = UploadURL.expand(settings.urlTemplate, name: record.name, fileExtension: record.fileExtension)
            emit(.delivered(record, url: url, status: status))
        case .transient(let message, let retryAfter):
            state.lastError = message
            record.lastError = message
            let delay = UploadBackoff.delay(afterFailures: record.attempts, first: settings.firstRetrySeconds,
                                            cap: settings.retryMaxSeconds, retryAfter: retryAfter)
            record.failedAt = now
            record.nextAttempt = now + delay
            persist(record, in: &state)
        case .permanent(let error, let message):
            record.state = .failed
            record.failedAt = now
            record.lastError = message
            persist(record, in: &state)
            emit(.failed(record, error: error, message: message))
        }
        announce(state)
    }

    /// A record that cannot be rewritten (disk full) keeps its older version on disk, which
    /// is still queued: nothing is lost, an attempt may only come sooner after a restart.
    private func persist(_ record: OutboxRecord, in state: inout State) {
        state.records[record.name] = record
        do { try journal.save(record) } catch { state.lastError = "\(error)" }
    }

    // MARK: Helpers (under the lock)

    /// Seconds since 1970, as records keep their times.
    private var now: Double { clock.wall().timeIntervalSince1970 }

    private func announce(_ state: State) { emit(.changed(currentSummary(state))) }

    /// Events are handed out under the lock, so they arrive in the order things happened;
    /// the handler only posts them on (it must not call back into the outbox).
    private func emit(_ event: Event) { onEvent(event) }

    private func currentSummary(_ state: State) -> OutboxSummary {
        let waiting = state.records.values.filter { $0.state == .queued }
        let retries = waiting.filter { $0.attempts > 0 }.map(\.nextAttempt)
        return OutboxSummary(queued: waiting.count, bytes: waiting.reduce(0) { $0 + $1.size }, lastError: state.lastError,
                             nextAttempt: retries.min() ?? 0)
    }

    /// Oldest first, a failed attempt counting as a new arrival: one slow or refusing server
    /// address for one result never holds the others back.
    private static func queueOrder(_ a: OutboxRecord, _ b: OutboxRecord) -> Bool {
        (a.failedAt ?? a.queuedAt, a.name) < (b.failedAt ?? b.queuedAt, b.name)
    }

    private static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var high: UInt8?
        for digit in hex.utf8 {
            guard let value = UInt8(String(UnicodeScalar(digit)), radix: 16) else { return [] }
            if let h = high { bytes.append(h << 4 | value); high = nil } else { high = value }
        }
        return bytes
    }
}
