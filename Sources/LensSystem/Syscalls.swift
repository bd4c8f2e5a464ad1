import CLinux
import Glibc

/// The calls the storage, identity and MP4 code make, by path or in a directory. Each wrapper retries
/// EINTR and fails with `Syscalls.Failure`, which keeps errno, so callers decide what an errno
/// means to them (ENOENT is "not found" for a lookup but an I/O error for a rename).
public enum Syscalls {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// The C function, e.g. "open".
        public let call: String
        public let path: String?
        public let errno: Int32

        public init(call: String, path: String?, errno: Int32) {
            self.call = call
            self.path = path
            self.errno = errno
        }

        public var description: String {
            let reason = String(cString: strerror(errno))
            return path.map { "\(call) \($0): \(reason)" } ?? "\(call): \(reason)"
        }
    }

    /// Runs `body` in LensSystem's EINTR loop; -1 becomes a `Failure`.
    public static func retrying<Result: SignedInteger>(_ call: String, _ path: String? = nil, _ body: () -> Result) throws -> Result {
        do {
            return Result(try SystemCalls.retrying { Int(body()) })
        } catch {
            throw Failure(call: call, path: path, errno: error.rawValue)
        }
    }

    /// The corresponding C function is open(2); O_CLOEXEC is always added, so no descriptor
    /// leaks into the helpers other parts of lensd spawn.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws -> Descriptor {
        do {
            return Descriptor(try FileDescriptor.open(path, flags, mode: mode))
        } catch {
            throw Failure(call: "open", path: path, errno: error.rawValue)
        }
    }

    /// openat(2): `name` (one path component) inside `directory`, never following a symbolic
    /// link there (O_NOFOLLOW: ELOOP); O_CLOEXEC as for `open`.
    public static func open(at directory: borrowing Descriptor, _ name: String, _ flags: Int32, mode: mode_t = 0) throws -> Descriptor {
        let parent = directory.raw
        return Descriptor(owning: try retrying("openat", name) { openat(parent, name, flags | O_NOFOLLOW | O_CLOEXEC, mode) })
    }

    /// mkdirat(2).
    public static func makeDirectory(at directory: borrowing Descriptor, _ name: String, mode: mode_t) throws {
        let parent = directory.raw
        _ = try retrying("mkdirat", name) { mkdirat(parent, name, mode) }
    }

    /// renameat(2) within one directory.
    public static func rename(at directory: borrowing Descriptor, _ source: String, _ destination: String) throws {
        let parent = directory.raw
        _ = try retrying("renameat", "\(source) → \(destination)") { renameat(parent, source, parent, destination) }
    }

    /// unlinkat(2) of a file (not a directory).
    public static func unlink(at directory: borrowing Descriptor, _ name: String) throws {
        let parent = directory.raw
        _ = try retrying("unlinkat", name) { unlinkat(parent, name, 0) }
    }

    public static func makeDirectory(_ path: String, mode: mode_t) throws {
        _ = try retrying("mkdir", path) { Glibc.mkdir(path, mode) }
    }

    /// Creates `path` and any missing parents with `mode`; an existing directory is left as it is.
    public static func makeDirectories(_ path: String, mode: mode_t) throws {
        do {
            try makeDirectory(path, mode: mode)
        } catch let failure as Failure where failure.errno == ENOENT {
            let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            guard !parent.isEmpty else { throw failure }
            try makeDirectories(parent, mode: mode)
            try makeDirectory(path, mode: mode)
        } catch let failure as Failure where failure.errno == EEXIST {
            guard try status(path).isDirectory else { throw Failure(call: "mkdir", path: path, errno: ENOTDIR) }
        }
    }

    public static func changeMode(_ path: String, _ mode: mode_t) throws {
        _ = try retrying("chmod", path) { Glibc.chmod(path, mode) }
    }

    public static func rename(_ source: String, _ destination: String) throws {
        _ = try retrying("rename", "\(source) → \(destination)") { Glibc.rename(source, destination) }
    }

    public static func unlink(_ path: String) throws {
        _ = try retrying("unlink", path) { Glibc.unlink(path) }
    }

    public static func removeDirectory(_ path: String) throws {
        _ = try retrying("rmdir", path) { Glibc.rmdir(path) }
    }

    /// lstat(2): symbolic links are reported, never followed.
    public static func status(_ path: String) throws -> FileStatus {
        var status = stat()
        _ = try retrying("lstat", path) { lstat(path, &status) }
        return FileStatus(status)
    }

    /// Makes a rename or a new directory entry durable: POSIX leaves the entry itself in the
    /// page cache until the directory is fsynced.
    public static func syncDirectory(_ path: String) throws {
        try open(path, O_RDONLY | O_DIRECTORY).sync()
    }

    /// The names in a directory, without "." and "..".
    public static func directoryEntries(_ path: String) throws -> [String] {
        guard let directory = opendir(path) else { throw Failure(call: "opendir", path: path, errno: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            // readdir returns NULL both at the end and on error; only errno tells them apart.
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw Failure(call: "readdir", path: path, errno: errno) }
                return names
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Bytes an unprivileged writer may still use in the filesystem holding `path` (statvfs f_bavail).
    public static func availableBytes(_ path: String) throws -> Int64 {
        var status = statvfs()
        _ = try retrying("statvfs", path) { statvfs(path, &status) }
        return Int64(clamping: UInt64(status.f_bavail).multipliedReportingOverflow(by: UInt64(status.f_frsize)).partialValue)
    }

    /// memfd_create(2) with MFD_CLOEXEC | MFD_ALLOW_SEALING; the name shows in /proc/<pid>/fd.
    public static func makeSealableMemoryFile(name: String) throws -> Descriptor {
        Descriptor(owning: try retrying("memfd_create", name) { lens_memfd_create_sealable(name) })
    }

    public static func setDumpable(_ dumpable: Bool) throws {
        _ = try retrying("prctl(PR_SET_DUMPABLE)") { lens_set_dumpable(dumpable ? 1 : 0) }
    }


    public static func setCoreSizeLimit(_ bytes: rlim_t) throws {
        var limit = rlimit(rlim_cur: bytes, rlim_max: bytes)
        _ = try retrying("setrlimit(RLIMIT_CORE)") { setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit) }
    }
}

/// The parts of `struct stat` lensd looks at.
public struct FileStatus: Sendable {
    public let mode: mode_t
    public let owner: uid_t
    public let size: Int
    public let modified: timespec

    public init(_ status: stat) {
        mode = status.st_mode
        owner = status.st_uid
        size = Int(status.st_size)
        modified = status.st_mtim
    }

    public var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
    public var isRegularFile: Bool { mode & S_IFMT == S_IFREG }
    public var isSymbolicLink: Bool { mode & S_IFMT == S_IFLNK }
    public var permissions: mode_t { mode & 0o7777 }
}
