#if canImport(Glibc)
import Glibc
#endif

/// The one error LensSystem throws: which call failed ("openat"), on which path when it was
/// given one, and its errno. Callers decide what an errno means to them (ENOENT is "not found"
/// for a lookup but an I/O error for a rename) by matching `errno` against `Errno`'s names.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C function, e.g. "open", "fcntl(F_ADD_SEALS)".
    public let call: String
    public let path: String?
    public let errno: Errno

    public init(_ call: String, path: String? = nil, errno: Errno) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    /// "openat notes/a.json: No such file or directory".
    public var description: String {
        path.map { "\(call) \($0): \(errno)" } ?? "\(call): \(errno)"
    }
}
