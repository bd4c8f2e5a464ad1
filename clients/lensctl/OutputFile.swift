import Foundation

/// Writing a signed result (photo or video): all of it or nothing, and never over an existing
/// file unless asked.
enum OutputFile {
    /// Checked before capturing, so that a refusal costs no photo or video: an existing file
    /// (unless `force`), a directory that is not there or not writable. nil: NAME.jpg or
    /// NAME.mp4 in the current directory, whose name is not known yet.
    static func checkTarget(_ path: String?, force: Bool) throws {
        if let path, !force, FileManager.default.fileExists(atPath: path) {
            throw CommandFailure(.failed, "\(path) exists; pass --force to overwrite it")
        }
        let directory = URL(fileURLWithPath: path ?? "x").standardizedFileURL.deletingLastPathComponent().path
        guard access(directory, W_OK) == 0 else { throw failure("cannot write to \(directory)") }
    }

    static func write(_ bytes: Data, to path: String, overwrite: Bool) throws -> String {
        try write(to: path, overwrite: overwrite) { fd in
            guard bytes.withUnsafeBytes({ writeAll(fd, $0) }) else { throw failure("cannot write \(path)") }
        }.path
    }

    /// Lets `fill` write a temporary file beside `path` (through the fd it gets), fsyncs it, then
    /// renames it over `path` (`overwrite`) or hard-links it there, which fails if a file
    /// appeared meanwhile. A reader never sees a partial file; if `fill` throws, nothing is left.
    /// Returns the absolute path and what `fill` returned.
    static func write<T>(to path: String, overwrite: Bool, fill: (Int32) throws -> T) throws -> (path: String, filled: T) {
        let target = URL(fileURLWithPath: path).standardizedFileURL
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp").path
        // Read-write: a caller may read back what it wrote (record checks the hash of the file itself).
        let fd = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw failure("cannot create \(temporary)") }
        defer { unlink(temporary) }
        let filled: T
        do {
            filled = try fill(fd)
        } catch {
            close(fd)
            throw error
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard synced else { throw failure("cannot write \(temporary)") }
        if overwrite {
            guard rename(temporary, target.path) == 0 else { throw failure("cannot rename \(temporary) to \(target.path)") }
        } else {
            guard link(temporary, target.path) == 0 else {
                if errno == EEXIST { throw CommandFailure(.failed, "\(target.path) exists; pass --force to overwrite it") }
                throw failure("cannot create \(target.path)")
            }
        }
        syncDirectory(target.deletingLastPathComponent().path)
        return (target.path, filled)
    }

    private static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let count = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    /// So the new name survives a crash; best effort, the file itself is already safe.
    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    private static func failure(_ what: String) -> CommandFailure {
        CommandFailure(.failed, "\(what): \(String(cString: strerror(errno)))")
    }
}
