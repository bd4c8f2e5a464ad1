import FoundationEssentials
import Glibc
import LensSystem

/// The state directory holds the device key and every result: lensd starts only when it is a
/// real directory (not a symbolic link, whose target another may choose), owned by lensd's user or
/// root, and writable by its owner alone — another user who could write there could delete the
/// identity (lensd would enroll a new one) or plant what lensd then reads.
enum StateDirectoryCheck {
    /// Throws, naming the path and what is wrong, when lensd must not use `path`.
    static func check(_ path: String, ownUID: UInt32 = UInt32(geteuid())) throws {
        let status: FileStatus
        do { status = try FileSystem.status(path, followingLinks: false) } catch {
            throw ConfigurationError("state-dir \(path) cannot be read: \(error)")
        }
        if status.isSymbolicLink {
            throw ConfigurationError("state-dir \(path) is a symbolic link: give lensd the directory itself")
        }
        guard status.isDirectory else {
            throw ConfigurationError("state-dir \(path) is not a directory")
        }
        let owner = status.owner
        guard owner == ownUID || owner == 0 else {
            throw ConfigurationError("state-dir \(path) belongs to uid \(owner), not to lensd's user (uid \(ownUID)) or root: "
                + "chown it to lensd's user")
        }
        let mode = UInt16(status.permissions)
        guard mode & 0o022 == 0 else {
            throw ConfigurationError("state-dir \(path) is writable by \(mode & 0o002 != 0 ? "others" : "its group") "
                + "(mode \(String(mode, radix: 8))): chmod 0700 it")
        }
    }
}
