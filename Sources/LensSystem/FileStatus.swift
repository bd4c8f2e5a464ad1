#if canImport(Glibc)
import Glibc
#endif

/// The parts of `struct stat` lensd looks at.
public struct FileStatus: Sendable {
    public let mode: mode_t
    public let owner: uid_t
    public let size: Int
    public let modified: timespec
    /// Inode change time: a rewrite or chmod moves it.
    public let changed: timespec
    public let device: UInt64
    public let inode: UInt64

    public init(_ status: stat) {
        mode = status.st_mode
        owner = status.st_uid
        size = Int(status.st_size)
        modified = status.st_mtim
        changed = status.st_ctim
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    public var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
    public var isRegularFile: Bool { mode & S_IFMT == S_IFREG }
    public var isSymbolicLink: Bool { mode & S_IFMT == S_IFLNK }
    public var permissions: mode_t { mode & 0o7777 }
}
