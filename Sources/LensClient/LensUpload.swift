import FoundationEssentials
import LensBus

/// The outbox as a whole (Manager.OutboxState): the same for every caller.
public struct LensOutboxState: Sendable, Equatable {
    /// Results waiting to be sent (permanent failures are not counted).
    public var queued: UInt32
    public var bytes: UInt64
    /// Why the last attempt failed; empty once one succeeds.
    public var lastError: String
    /// The earliest retry scheduled after a failure; nil when none waits.
    public var nextAttempt: Date?

    init(_ fields: Fields) throws(LensClientError) {
        queued = try fields.uint32("queued")
        bytes = try fields.uint64("bytes")
        lastError = try fields.string("last_error")
        nextAttempt = Self.date(try fields.uint64("next_attempt"))
    }

    static func date(_ seconds: UInt64) -> Date? { seconds == 0 ? nil : Date(timeIntervalSince1970: Double(seconds)) }
}

/// One of the caller's results in the outbox (ListUploads).
public struct LensUpload: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Waiting for its next attempt, or being sent.
        case queued
        /// Refused for good (UploadFailed); kept until `LensCamera.retryUploads` asks again.
        case failed
    }

    public var name: String
    public var uid: UInt32
    public var state: State
    public var mime: String
    public var size: UInt64
    public var attempts: UInt32
    /// nil: as soon as the outbox gets to it.
    public var nextAttempt: Date?
    public var lastError: String

    init(_ fields: Fields) throws(LensClientError) {
        name = try fields.string("name")
        uid = try fields.uint32("uid")
        state = try fields.wire("state", as: State.self)
        mime = try fields.string("mime")
        size = try fields.uint64("size")
        attempts = try fields.uint32("attempts")
        nextAttempt = LensOutboxState.date(try fields.uint64("next_attempt"))
        lastError = try fields.string("last_error")
    }
}

/// What ResultUploaded says: the server confirmed the file.
public struct LensUploadInfo: Sendable, Equatable {
    public var url: String
    /// The HTTP status of the confirming answer (2xx).
    public var status: UInt32
    /// Lower-case hex SHA-256 of the bytes sent.
    public var sha256: String
    public var size: UInt64

    init(_ fields: Fields) throws(LensClientError) {
        url = try fields.string("url")
        status = try fields.uint32("status")
        sha256 = try fields.string("sha256")
        size = try fields.uint64("size")
    }
}
