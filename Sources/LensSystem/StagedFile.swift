#if canImport(Glibc)
import Glibc
#endif

/// The one way lensd and its tools write a file someone may read while it is written or after a
/// crash: under a temporary name in the directory of its final name, fsynced, then published by
/// rename(2) (replacing what had the name) or link(2) (replacing nothing). Both are atomic within
/// one directory and the data is durable before, so the final name either does not exist or holds
/// the complete bytes; at worst a ".tmp-*" file is left, which ResultStore removes at start. Names
/// are resolved relative to the directory's descriptor, and no symbolic link is followed. Given up
/// before it is published, or failing, it leaves nothing behind. Results, journals, notes and
/// identity files, the signer's output (AtomicOutput) and lensctl's `-o` (OutputFile) are written so.
public final class StagedFile {
    public static let temporaryPrefix = ".tmp-"

    private let directory: FileDescriptor
    private let temporaryName: String
    /// The temporary file, open read-write: a writer may read back what it wrote.
    public let file: FileDescriptor
    private var isPublished = false

    /// Creates the temporary file with `mode` (less the umask) in `directory`; `label` (what it
    /// will be) is part of its name, for whoever finds it after a crash.
    public init(in directory: borrowing FileDescriptor, label: String = "", mode: mode_t) throws(SystemError) {
        self.directory = try directory.duplicate()
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        temporaryName = Self.temporaryPrefix + (label.isEmpty ? random : "\(label)-\(random)")
        file = try FileDescriptor.open(at: self.directory, temporaryName, O_RDWR | O_CREAT | O_EXCL, mode: mode)
    }

    /// In the directory at `path`.
    public convenience init(inDirectory path: String, label: String = "", mode: mode_t) throws(SystemError) {
        try self.init(in: try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY), label: label, mode: mode)
    }

    /// Holding `parts`, written in order.
    public convenience init(in directory: borrowing FileDescriptor, writing parts: [[UInt8]], mode: mode_t) throws(SystemError) {
        try self.init(in: directory, mode: mode)
        for part in parts { try file.writeAll(part) }
    }

    deinit {
        if !isPublished { try? FileSystem.unlink(at: directory, temporaryName) }
    }

    /// fsyncs the file and renames it to `name`, replacing what had that name.
    public func publish(as name: String) throws(SystemError) {
        try file.sync()
        try FileSystem.rename(at: directory, temporaryName, to: name)
        isPublished = true
    }

    /// fsyncs the file and links it as `name`: fails with `.exists`, replacing nothing, when
    /// something has that name. The temporary name goes with the StagedFile.
    public func publish(asNew name: String) throws(SystemError) {
        try file.sync()
        try FileSystem.link(at: directory, temporaryName, to: name)
    }

    /// fsyncs the directory, so the published name survives a crash too.
    public func syncDirectory() throws(SystemError) {
        try directory.sync()
    }

    /// Publishes as `name` and fsyncs the directory; when that fsync fails the name is removed
    /// again, so a name that is visible was also made durable (a new result, a journal entry).
    public func commit(as name: String) throws(SystemError) {
        try publish(as: name)
        do {
            try syncDirectory()
        } catch {
            try? FileSystem.unlink(at: directory, name)
            throw error
        }
    }
}
