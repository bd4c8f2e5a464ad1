/// The outbox as a whole (Manager.OutboxState): nothing about whose results they are.
public struct OutboxSummary: Sendable, Equatable {
    /// Results waiting to be delivered (permanent failures are not counted).
    public var queued: Int
    public var bytes: Int
    /// Why the last attempt failed; empty once an attempt succeeds.
    public var lastError: String
    /// Seconds since 1970 of the earliest retry scheduled after a failure; 0 when none waits.
    public var nextAttempt: Double

    public static let empty = OutboxSummary(queued: 0, bytes: 0, lastError: "", nextAttempt: 0)
}
