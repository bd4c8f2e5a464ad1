import Glibc
import LensSystem

/// Opening what lensd keeps in its state directory: one name at a time, relative to the
/// descriptor of the directory that holds it, never through a symbolic link, and only when it is
/// what lensd put there — a directory or a regular file, owned by lensd's own user (or root).
/// Anything else was planted there (a link sending photos elsewhere, a key that is not lensd's)
/// and is refused with a sentence saying what was found.
package enum StateDirectoryEntry {
    package enum Kind {
        case directory, regularFile
    }

    package struct Refusal: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// `label` names the entry in messages (its full path). A missing entry fails with the
    /// SystemError of ENOENT, as an open would.
    package static func open(_ name: String, in directory: borrowing FileDescriptor, as kind: Kind, label: String) throws -> FileDescriptor {
        // O_NONBLOCK: opening a planted FIFO must not block; it makes no difference to files.
        let flags = kind == .directory ? O_RDONLY | O_DIRECTORY : O_RDONLY | O_NONBLOCK
        let entry: FileDescriptor
        do {
            entry = try FileDescriptor.open(at: directory, name, flags)
        } catch {
            guard error.errno == .tooManySymbolicLinks || error.errno == .notDirectory else { throw error }
            throw Refusal(description: "refusing \(label): it is a symbolic link or not a \(kind.noun); "
                          + "lensd does not follow links in its state directory")
        }
        let status = try entry.status()
        guard kind == .directory ? status.isDirectory : status.isRegularFile else {
            throw Refusal(description: "refusing \(label): it is not a \(kind.noun)")
        }
        guard status.owner == geteuid() || status.owner == 0 else {
            throw Refusal(description: "refusing \(label): it is owned by uid \(status.owner), not by lensd's user (uid \(geteuid()))")
        }
        return entry
    }
}

private extension StateDirectoryEntry.Kind {
    var noun: String {
        switch self {
        case .directory: "directory"
        case .regularFile: "regular file"
        }
    }
}
