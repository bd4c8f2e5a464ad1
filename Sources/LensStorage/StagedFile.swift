import Glibc
import LensSystem

/// A file written under a temporary name in the directory of its final name, then renamed into
/// place. rename(2) within one directory is atomic, and the data is fsynced before it, so after a
/// crash the final name either does not exist or holds the complete bytes; at worst a
/// ".tmp-*" file is left, which `ResultStore.init` removes. Every name is resolved relative to
/// the directory's descriptor and no symbolic link is followed.
package final class StagedFile {
    package static let temporaryPrefix = ".tmp-"

    private let directory: FileDescriptor
    private let temporaryName: String
    private var isCommitted = false

    /// Creates the temporary file with `mode` in `directory`, writes `parts` in order and fsyncs it.
    package init(directory: borrowing FileDescriptor, parts: [[UInt8]], mode: mode_t) throws {
        self.directory = try directory.duplicate()
        temporaryName = "\(Self.temporaryPrefix)\(UInt64.random(in: .min ... .max))"
        let file = try FileDescriptor.open(at: self.directory, temporaryName, O_WRONLY | O_CREAT | O_EXCL, mode: mode)
        do {
            for part in parts {
                try file.writeAll(part)
            }
            try file.sync()
        } catch {
            try? FileSystem.unlink(at: self.directory, temporaryName)
            throw error
        }
    }

    /// Nothing half-written stays behind when the caller gives up before committing.
    deinit {
        if !isCommitted {
            try? FileSystem.unlink(at: directory, temporaryName)
        }
    }

    /// Renames the file to `fileName` in its directory and fsyncs the directory. When that fsync
    /// fails the file is removed again, so a name that is visible was also made durable.
    package func commit(as fileName: String) throws {
        try FileSystem.rename(at: directory, temporaryName, to: fileName)
        isCommitted = true
        do {
            try directory.sync()
        } catch {
            try? FileSystem.unlink(at: directory, fileName)
            throw error
        }
    }
}
