import FoundationEssentials
import Dispatch
import LensStorage
import Synchronization

/// Results signed while no TSA answered, waiting for one (`timestamp = when-online`). Each has a
/// record in `<state>/restamp` (RecordJournal: written whole or not at all) from before its
/// owner is told it was signed until its file has been replaced by the time-stamped one, so a
/// restart or SIGKILL loses none; Restamping leaves a result it already updated as it is, so
/// none is stamped twice. Worked through in order on a queue of its own: a TSA that does not
/// answer is asked again after 0.5 s doubling to 8 s, and at once when a capture's own request
/// went through; meanwhile `isWaitingForTSA` lets captures skip the TSA.
public final class RestampQueue: Sendable {
    struct Record: JournalRecord {
        var name: String
        var uid: UInt32
        var queued: Date
    }

    public enum Event: Sendable {
        /// The result's file now carries the time-stamp; `time` is the TSA's.
        case updated(StoredResult, time: Date)
        /// It can never be stamped (the certificate expired first, the file does not verify).
        case dropped(name: String, uid: UInt32, reason: String)
    }

    private let journal: RecordJournal<Record>
    /// Asked at each attempt (the device identity may change meanwhile); nil: not now.
    private let restamping: @Sendable () -> Restamping?
    private let store: ResultStore
    private let onEvent: @Sendable (Event) -> Void
    private let queue = DispatchQueue(label: "lensd-restamp")
    /// Used on `queue` only, so its lock is never contended (and never held across an attempt).
    private let state: Mutex<State>
    private let waiting = Atomic<Bool>(false)

    private struct State {
        var pending: [Record]
        var backoff = ReconnectBackoff()
        /// Bumped by every attempt, so a retry timer an earlier failure set does nothing once stale.
        var generation = 0
        var stopped = false
    }

    /// Any thread: the last attempt found no TSA answering, and the queue waits to try again.
    /// Captures need not wait for a TSA meanwhile: they are signed at once and queued.
    public var isWaitingForTSA: Bool { waiting.load(ordering: .relaxed) }

    public init(directory: String, restamping: @escaping @Sendable () -> Restamping?, store: ResultStore,
                onEvent: @escaping @Sendable (Event) -> Void, onDamagedRecord: (String, Error) -> Void) throws {
        journal = try RecordJournal(directory: directory, purpose: "the re-stamp queue")
        self.restamping = restamping
        self.store = store
        self.onEvent = onEvent
        let pending = journal.load(onDamaged: onDamagedRecord).sorted { $0.queued < $1.queued }
        state = Mutex(State(pending: pending))
        if !pending.isEmpty { queue.async { self.attempt() } }
    }

    /// Any thread, before the owner hears of the result: queues it durably. Its capture found no
    /// TSA answering, so the queue now waits for one.
    public func enqueue(name: String, uid: UInt32) throws {
        let record = Record(name: name, uid: uid, queued: Date())
        try journal.save(record)
        waiting.store(true, ordering: .relaxed)
        queue.async {
            let first = self.state.withLock { state in
                state.pending.append(record)
                return state.pending.count == 1
            }
            if first { self.attempt() }
        }
    }

    /// A TSA just answered a capture's request: the waiting results need not wait for the timer.
    public func tsaAnswered() {
        waiting.store(false, ordering: .relaxed)
        queue.async {
            let anyPending = self.state.withLock { state in
                state.backoff.reset()
                return !state.pending.isEmpty
            }
            if anyPending { self.attempt() }
        }
    }

    public var count: Int { queue.sync { state.withLock { $0.pending.count } } }

    /// Waits for the attempt under way, if any, and makes no more (shutdown). The records stay.
    public func stop() { queue.sync { state.withLock { $0.stopped = true } } }

    /// Works through the queue in order. No TSA answering stops the pass (the rest would fare no
    /// better); a result that fails for a reason of its own goes after the others, so it holds
    /// none of them up.
    private func attempt() {
        let started = state.withLock { state in
            guard !state.stopped else { return false }
            state.generation += 1
            return true
        }
        guard started else { return }
        var failedAlone: [Record] = []
        defer {
            let isEmpty = state.withLock { state in
                state.pending += failedAlone
                return state.pending.isEmpty
            }
            if !failedAlone.isEmpty { retryLater() }
            // Nothing left to wait with: the next capture asks a TSA itself.
            if isEmpty { waiting.store(false, ordering: .relaxed) }
        }
        while let record = state.withLock({ $0.pending.first }) {
            // No usable device identity now (perhaps after an enrollment): try again later.
            guard let restamping = restamping() else { return retryLater() }
            let event: Event
            do {
                let (result, time) = try restamping.restamp(record.name, uid: record.uid, in: store)
                event = .updated(result, time: time)
            } catch is TimeStamping.Unavailable {
                waiting.store(true, ordering: .relaxed)
                return retryLater()
            } catch let impossible as Restamping.Impossible {
                event = .dropped(name: record.name, uid: record.uid, reason: impossible.description)
            } catch let storage as StorageError where storage.kind == .notFound {
                event = .dropped(name: record.name, uid: record.uid, reason: "the result was deleted before a TSA answered")
            } catch {
                failedAlone.append(takeFirst())
                continue
            }
            do { try journal.remove(record.name) } catch {
                failedAlone.append(takeFirst())
                continue
            }
            state.withLock { state in
                state.pending.removeFirst()
                state.backoff.reset()
            }
            if case .updated = event { waiting.store(false, ordering: .relaxed) }
            onEvent(event)
        }
    }

    /// The record the attempt was about, off the front of the queue (only the queue takes any).
    private func takeFirst() -> Record {
        state.withLock { $0.pending.removeFirst() }
    }

    private func retryLater() {
        let (due, delay) = state.withLock { ($0.generation, $0.backoff.next()) }
        queue.asyncAfter(deadline: .now() + .milliseconds(Int(delay / .milliseconds(1)))) {
            if self.state.withLock({ $0.generation }) == due { self.attempt() }
        }
    }
}
