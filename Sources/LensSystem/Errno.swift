#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An errno, typed: callers match the named constants (`.noSpace`) rather than raw Int32
/// values, and the text is strerror's. Thrown inside a `SystemError`, which says the call.
public struct Errno: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The calling thread's errno now; read it right after the failing call.
    public static var current: Errno { Errno(rawValue: errno) }

    public var description: String { String(cString: strerror(rawValue)) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let quotaExceeded = Errno(rawValue: EDQUOT)
    public static let io = Errno(rawValue: EIO)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let notFound = Errno(rawValue: ENOENT)
    public static let exists = Errno(rawValue: EEXIST)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let notImplemented = Errno(rawValue: ENOSYS)
    public static let badDescriptor = Errno(rawValue: EBADF)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)
}
