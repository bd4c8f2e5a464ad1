#if canImport(Glibc)
import Glibc
#endif

/// Calls on names rather than descriptors, for the publish step of an atomic write (a temporary
/// file renamed or linked into place). Each goes through `SystemCalls`.
public enum FileSystem {
    /// rename(2): replaces `destination` atomically.
    public static func rename(_ source: String, to destination: String) throws(Errno) {
        try SystemCalls.rename(source, to: destination)
    }

    /// link(2): fails with `.exists` rather than replace anything.
    public static func link(_ source: String, to destination: String) throws(Errno) {
        try SystemCalls.link(source, to: destination)
    }

    public static func unlink(_ path: String) throws(Errno) {
        try SystemCalls.unlink(path)
    }

    /// stat(2) of `path`; lstat(2), which reports a symbolic link itself, without `followingLinks`.
    public static func status(_ path: String, followingLinks: Bool = true) throws(Errno) -> stat {
        try SystemCalls.status(path, followingLinks: followingLinks)
    }

    /// access(2): fails with `.permissionDenied` (or why not) unless this process may `mode` (W_OK, …) `path`.
    public static func checkAccess(_ path: String, _ mode: Int32) throws(Errno) {
        try SystemCalls.access(path, mode)
    }

    /// realpath(3): `path` absolute, without symbolic links, "." or "..".
    public static func resolvedPath(_ path: String) throws(Errno) -> String {
        try SystemCalls.resolvedPath(path)
    }

    /// fsyncs a directory so a new name in it survives a crash.
    public static func syncDirectory(_ path: String) throws(Errno) {
        try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY).sync()
    }
}
