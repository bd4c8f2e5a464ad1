import CCurl
import Foundation
import Glibc

/// The persistent upload queue. Results enter it once stored (`enqueue`, on the caller's thread:
/// the record is on disk when it returns); one dedicated thread sends them one at a time, in the
/// order they came, and retries transient failures with backoff. Capture never waits for it.
///
/// Delivery is at least once and always whole: a record leaves the queue only after a 2xx, so an
/// upload cut short (network, server, SIGKILL of lensd) is sent again from its first byte to the
/// same URL, which a PUT replaces rather than duplicates.
public final class Outbox: @unchecked Sendable {
    public enum Event: Sendable {
        case delivered(OutboxRecord, url: String, status: Int)
        /// A permanent failure: kept locally, not retried until asked. `error`: see `UploadError`.
        case failed(OutboxRecord, error: String, message: String)
        /// The summary after any change (Manager.OutboxState).
        case changed(OutboxSummary)
    }

    public let settings: OutboxSettings
    private let journal: RecordJournal<OutboxRecord>
    private let onEvent: @Sendable (Event) -> Void
    // `records`, `lastError` and `stopping` are guarded by `condition`.
    private let condition = NSCondition()
    private var records: [String: OutboxRecord] = [:]
    private var lastError = ""
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)
    /// Raised by `stop` to abort a transfer in flight.
    private let abortFlag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

    /// Loads what `directory` (`<state>/outbox`) holds from an earlier run and starts the thread.
    public init(settings: OutboxSettings, directory: String, onEvent: @escaping @Sendable (Event) -> Void,
                onDamagedRecord: (String, Error) -> Void = { _, _ in }) throws {
        self.settings = settings
        self.onEvent = onEvent
        journal = try RecordJournal(directory: directory, purpose: "the outbox")
        abortFlag.initialize(to: 0)
        for record in journal.load(onDamaged: onDamagedRecord) { records[record.name] = record }
        let thread = Thread { [self] in run() }
        thread.name = "lensd-outbox"
        thread.start()
    }

    deinit { abortFlag.deallocate() }

    /// Queues a stored result; durable when it returns. Throws when the record cannot be written
    /// (the disk is full): the result is then not queued.
    public func enqueue(_ stored: StoredResult, fileExtension: String) throws {
        try put(OutboxRecord(stored, fileExtension: fileExtension))
    }

    /// The file of `stored` changed (a time-stamp was added later): the new bytes are what is
    /// delivered, whether the old ones were already delivered, are waiting, or are being sent now
    /// (an attempt in flight then does not count).
    public func enqueueAgain(_ stored: StoredResult, fileExtension: String) throws {
        try put(OutboxRecord(stored, fileExtension: fileExtension))
    }

    private func put(_ fresh: OutboxRecord) throws {
        var record = fresh
        condition.lock()
        defer { condition.unlock() }
        if let old = records[record.name] {
            record.generation = old.generation + 1
            record.queuedAt = old.queuedAt
        }
        try journal.save(record)
        records[record.name] = record
        condition.signal()
        announce()
    }

    /// Makes the matching records due now (failed ones too): `uid` nil means everyone's, `name`
    /// nil every result. Returns how many.
    @discardableResult
    public func retry(uid: UInt32?, name: String?) -> Int {
        condition.lock()
        defer { condition.unlock() }
        var count = 0
        for var record in records.values where (uid == nil || record.uid == uid) && (name == nil || record.name == name) {
            record.state = .queued
            record.nextAttempt = 0
            try? journal.save(record)
            records[record.name] = record
            count += 1
        }
        if count > 0 {
            condition.signal()
            announce()
        }
        return count
    }

    /// The records of `uid` (nil: all), in queue order.
    public func records(uid: UInt32?) -> [OutboxRecord] {
        condition.lock()
        defer { condition.unlock() }
        return records.values.filter { uid == nil || $0.uid == uid }.sorted(by: Self.queueOrder)
    }

    public var summary: OutboxSummary {
        condition.lock()
        defer { condition.unlock() }
        return currentSummary()
    }

    /// Aborts a transfer in flight (it is sent again whole next time) and stops the thread.
    public func stop() {
        condition.lock()
        stopping = true
        lens_curl_raise_flag(abortFlag)
        condition.signal()
        condition.unlock()
        finished.wait()
    }

    // MARK: The upload thread

    private func run() {
        condition.lock()
        while !stopping {
            let now = Date().timeIntervalSince1970
            let waiting = records.values.filter { $0.state == .queued }
            if let due = waiting.filter({ $0.nextAttempt <= now }).min(by: Self.queueOrder) {
                condition.unlock()
                let outcome = attempt(due)
                condition.lock()
                if !stopping { settle(due, outcome) }
            } else if let wake = waiting.map(\.nextAttempt).min() {
                _ = condition.wait(until: Date(timeIntervalSince1970: wake))
            } else {
                condition.wait()
            }
        }
        condition.unlock()
        finished.signal()
    }

    /// Sends the record's file, off the lock: the verdict, and the record with the size and
    /// SHA-256 of what was sent.
    private func attempt(_ record: OutboxRecord) -> (UploadVerdict, OutboxRecord) {
        var record = record
        let file: Descriptor
        do { file = try Syscalls.open(record.path, O_RDONLY | O_NOFOLLOW) } catch let failure as Syscalls.Failure where failure.errno == ENOENT {
            return (.permanent(error: UploadError.missing, message: "the local file is gone (deleted before it could be sent)"), record)
        } catch {
            return (.transient("reading the local file: \(error)", retryAfter: nil), record)
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
                try file.rewind()
            }
            let url = UploadURL.expand(settings.urlTemplate, name: record.name, fileExtension: record.fileExtension)
            let upload = HTTPUpload(url: url, headers: headers(for: record), caFile: settings.caFile, abortFlag: abortFlag)
            return (UploadVerdict.of(try upload.send(fd: file.raw, size: size)), record)
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
    private func settle(_ sent: OutboxRecord, _ outcome: (UploadVerdict, OutboxRecord)) {
        let (verdict, attempted) = outcome
        // Re-enqueued meanwhile: the newer bytes are still to be sent, whatever this attempt did.
        guard var record = records[sent.name], record.generation == sent.generation else { return }
        record.sha256 = attempted.sha256
        record.size = attempted.size
        record.attempts += 1
        switch verdict {
        case .delivered(let status):
            lastError = ""
            records[record.name] = nil
            do { try journal.remove(record.name) } catch { lastError = "\(error)" }
            let url = UploadURL.expand(settings.urlTemplate, name: record.name, fileExtension: record.fileExtension)
            emit(.delivered(record, url: url, status: status))
        case .transient(let message, let retryAfter):
            lastError = message
            record.lastError = message
            let delay = UploadBackoff.delay(afterFailures: record.attempts, first: settings.firstRetrySeconds,
                                            cap: settings.retryMaxSeconds, retryAfter: retryAfter)
            record.nextAttempt = Date().timeIntervalSince1970 + delay
            persist(record)
        case .permanent(let error, let message):
            record.state = .failed
            record.lastError = message
            persist(record)
            emit(.failed(record, error: error, message: message))
        }
        announce()
    }

    /// A record that cannot be rewritten (disk full) keeps its older version on disk, which
    /// is still queued: nothing is lost, an attempt may only come sooner after a restart.
    private func persist(_ record: OutboxRecord) {
        records[record.name] = record
        do { try journal.save(record) } catch { lastError = "\(error)" }
    }

    // MARK: Helpers (under the lock)

    private func announce() { emit(.changed(currentSummary())) }

    /// Events are handed out under the lock, so they arrive in the order things happened;
    /// the handler only posts them on (it must not call back into the outbox).
    private func emit(_ event: Event) { onEvent(event) }

    private func currentSummary() -> OutboxSummary {
        let waiting = records.values.filter { $0.state == .queued }
        let retries = waiting.filter { $0.attempts > 0 }.map(\.nextAttempt)
        return OutboxSummary(queued: waiting.count, bytes: waiting.reduce(0) { $0 + $1.size }, lastError: lastError,
                             nextAttempt: retries.min() ?? 0)
    }

    private static func queueOrder(_ a: OutboxRecord, _ b: OutboxRecord) -> Bool {
        (a.queuedAt, a.name) < (b.queuedAt, b.name)
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
