#if canImport(Glibc)
import Glibc
#endif

/// Calls on names rather than descriptors: by path, or inside a directory held open (whose
/// names a symbolic link cannot redirect). Each goes through `SystemCalls`.
public enum FileSystem {
    /// rename(2): replaces `destination` atomically.
    public static func rename(_ source: String, to destination: String) throws(SystemError) {
        try SystemCalls.rename(source, to: destination)
    }

    /// link(2): fails with `.exists` rather than replace anything.
    public static func link(_ source: String, to destination: String) throws(SystemError) {
        try SystemCalls.link(source, to: destination)
    }

    public static func unlink(_ path: String) throws(SystemError) {
        try SystemCalls.unlink(path)
    }

    public static func removeDirectory(_ path: String) throws(SystemError) {
        try SystemCalls.removeDirectory(path)
    }

    public static func changeMode(_ path: String, _ mode: mode_t) throws(SystemError) {
        try SystemCalls.changeMode(path, mode)
    }

    /// lstat(2), which reports a symbolic link itself; stat(2), through it, with `followingLinks`.
    public static func status(_ path: String, followingLinks: Bool = false) throws(SystemError) -> FileStatus {
        FileStatus(try SystemCalls.status(path, followingLinks: followingLinks))
    }

    /// access(2): fails with `.permissionDenied` (or why not) unless this process may `mode` (W_OK, …) `path`.
    public static func checkAccess(_ path: String, _ mode: Int32) throws(SystemError) {
        try SystemCalls.access(path, mode)
    }

    /// realpath(3): `path` absolute, without symbolic links, "." or "..".
    public static func resolvedPath(_ path: String) throws(SystemError) -> String {
        try SystemCalls.resolvedPath(path)
    }

    /// fsyncs a directory so a new name in it (a rename, a new file) survives a crash: POSIX
    /// leaves the entry itself in the page cache until the directory is fsynced.
    public static func syncDirectory(_ path: String) throws(SystemError) {
        try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY).sync()
    }

    /// The names in a directory, without "." and "..".
    public static func directoryEntries(_ path: String) throws(SystemError) -> [String] {
        try SystemCalls.directoryEntries(path)
    }

    /// Bytes an unprivileged writer may still use in the filesystem holding `path` (statvfs f_bavail).
    public static func availableBytes(_ path: String) throws(SystemError) -> Int64 {
        try SystemCalls.availableBytes(path)
    }

    public static func makeDirectory(_ path: String, mode: mode_t) throws(SystemError) {
        try SystemCalls.makeDirectory(path, mode: mode)
    }

    /// Creates `path` and any missing parents with `mode`; an existing directory is left as it is.
    public static func makeDirectories(_ path: String, mode: mode_t) throws(SystemError) {
        do {
            try makeDirectory(path, mode: mode)
        } catch where error.errno == .notFound {
            let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            guard !parent.isEmpty else { throw error }
            try makeDirectories(parent, mode: mode)
            try makeDirectory(path, mode: mode)
        } catch where error.errno == .exists {
            guard try status(path).isDirectory else { throw SystemError("mkdir", path: path, errno: .notDirectory) }
        }
    }

    // MARK: Inside a directory held open

    /// mkdirat(2).
    public static func makeDirectory(at directory: borrowing FileDescriptor, _ name: String, mode: mode_t) throws(SystemError) {
        try SystemCalls.makeDirectory(at: directory.rawValue, name, mode: mode)
    }

    /// renameat(2) within one directory.
    public static func rename(at directory: borrowing FileDescriptor, _ source: String, to destination: String) throws(SystemError) {
        try SystemCalls.rename(at: directory.rawValue, source, to: destination)
    }

    /// linkat(2) within one directory: fails with `.exists` rather than replace anything.
    public static func link(at directory: borrowing FileDescriptor, _ source: String, to destination: String) throws(SystemError) {
        try SystemCalls.link(at: directory.rawValue, source, to: destination)
    }

    /// unlinkat(2) of a file (not a directory).
    public static func unlink(at directory: borrowing FileDescriptor, _ name: String) throws(SystemError) {
        try SystemCalls.unlink(at: directory.rawValue, name)
    }
}
