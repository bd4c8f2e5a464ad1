import Glibc
import LensSystem

/// Why a result could not be stored or fetched. `kind` is what the daemon maps to a D-Bus error
/// name; `message` is for logs and carries errno's text.
public struct StorageError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// No such result for this uid (also when it exists but belongs to another uid).
        case notFound
        /// A malformed name or file extension, or a name already stored.
        case invalidArgument
        /// The disk is full (ENOSPC, EDQUOT), or the result alone exceeds the per-uid byte limit.
        case full
        /// Any other system-call failure.
        case io
    }

    public let kind: Kind
    public let message: String
    /// The errno behind it, when a system call failed.
    public let errno: Errno?

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
        errno = nil
    }

    /// A failed system call while doing `operation`: ENOSPC and EDQUOT become `.full`, the rest `.io`.
    init(_ failure: SystemError, while operation: String) {
        kind = failure.errno == .noSpace || failure.errno == .quotaExceeded ? .full : .io
        message = "\(operation): \(failure)"
        errno = failure.errno
    }

    public var description: String {
        message
    }
}
