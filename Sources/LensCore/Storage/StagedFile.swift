import Glibc

/// A file written under a temporary name in the directory of its final name, then renamed into
/// place. rename(2) within one directory is atomic, and the data is fsynced before it, so after a
/// crash the final name either does not exist or holds the complete bytes; at worst a
/// ".tmp-*" file is left, which `ResultStore.init` removes.
final class StagedFile {
    static let temporaryPrefix = ".tmp-"

    private let directory: String
    private let temporaryPath: String
    private var isCommitted = false

    /// Creates the temporary file with `mode`, writes `parts` in order and fsyncs it.
    init(directory: String, parts: [[UInt8]], mode: mode_t) throws {
        self.directory = directory
        temporaryPath = "\(directory)/\(Self.temporaryPrefix)\(UInt64.random(in: .min ... .max))"
        let file = try Syscalls.open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode)
        do {
            for part in parts {
                try file.write(part)
            }
            try file.sync()
        } catch {
            try? Syscalls.unlink(temporaryPath)
            throw error
        }
    }

    /// Nothing half-written stays behind when the caller gives up before committing.
    deinit {
        if !isCommitted {
            try? Syscalls.unlink(temporaryPath)
        }
    }

    /// Renames the file to `fileName` in its directory and fsyncs the directory. When that fsync
    /// fails the file is removed again, so a name that is visible was also made durable.
    func commit(as fileName: String) throws {
        let finalPath = "\(directory)/\(fileName)"
        try Syscalls.rename(temporaryPath, finalPath)
        isCommitted = true
        do {
            try Syscalls.syncDirectory(directory)
        } catch {
            try? Syscalls.unlink(finalPath)
            throw error
        }
    }
}
