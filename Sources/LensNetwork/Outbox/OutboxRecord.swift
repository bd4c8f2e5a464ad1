import FoundationEssentials
import LensStorage

/// One result waiting in the outbox (or given up on), as its record file holds it.
public struct OutboxRecord: Codable, Sendable, Equatable, JournalRecord {
    public enum State: String, Codable, Sendable {
        /// Waiting for its next attempt, or being sent.
        case queued
        /// A permanent failure (the server refused it, too large): kept until `retry` asks again.
        case failed
    }

    public var name: String
    public var uid: UInt32
    /// The result file lensd stored; what is sent is whatever it holds at the attempt.
    public var path: String
    public var fileExtension: String
    public var mime: String
    public var size: Int
    /// Lowercase hex; nil until the upload thread has hashed a file that came without it (videos).
    public var sha256: String?
    public var state: State
    public var attempts: Int
    /// Seconds since 1970 of the next attempt (0: as soon as possible).
    public var nextAttempt: Double
    public var lastError: String?
    /// Seconds since 1970 when it entered the queue.
    public var queuedAt: Double
    /// Seconds since 1970 of its last failed attempt, nil before one: results go out in the order
    /// of this or `queuedAt`, so one that failed waits behind those queued before the failure.
    public var failedAt: Double?
    /// Raised by every re-enqueue (the file changed), so an attempt of the older bytes that
    /// finishes afterwards does not count as delivering the new ones.
    public var generation: Int

    public init(_ stored: StoredResult, fileExtension: String, queuedAt: Double) {
        name = stored.name
        uid = stored.uid
        path = stored.path
        self.fileExtension = fileExtension
        mime = stored.mime
        size = stored.size
        sha256 = stored.sha256
        state = .queued
        attempts = 0
        nextAttempt = 0
        lastError = nil
        self.queuedAt = queuedAt
        generation = 0
    }
}
