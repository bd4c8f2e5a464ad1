import Foundation

/// Writing a signed result (photo or video): all of it or nothing, never over an existing file
/// unless asked, and never in place of anything but a regular file — not a device node, FIFO,
/// socket or symbolic link (`-o /dev/full --force` is refused, the device left alone).
enum OutputFile {
    /// Where `-o` sends a result, decided before capturing so that a refusal costs no photo or video.
    enum Target {
        /// `-o -`: standard output.
        case standardOutput
        /// `-o FILE`.
        case file(String)
        /// `-o DIR`, or no `-o` (the current directory): NAME.jpg or NAME.mp4 inside it.
        case directory(String)

        /// nil for standard output.
        func path(name: String, fileExtension: String) -> String? {
            switch self {
            case .standardOutput: nil
            case .file(let path): path
            case .directory(let directory): URL(fileURLWithPath: directory).appendingPathComponent("\(name).\(fileExtension)").path
            }
        }

        var isStandardOutput: Bool {
            if case .standardOutput = self { true } else { false }
        }
    }

    /// Checks what `-o` names: a file that may be created (or replaced, with `force`, when it is a
    /// regular file), a writable directory, or `-`.
    static func target(_ option: String?, force: Bool) throws -> Target {
        guard let option else { return try directory(".") }
        if option == "-" {
            guard isatty(STDOUT_FILENO) == 0 else {
                throw CommandFailure(.usage, "-o - writes binary data to standard output: redirect it to a file or a pipe")
            }
            return .standardOutput
        }
        var info = stat()
        guard lstat(option, &info) == 0 else {
            guard errno == ENOENT else { throw failure("cannot inspect \(option)") }
            try requireWritableDirectory(of: option)
            return .file(option)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard force else { throw CommandFailure(.failed, "\(option) exists; pass --force to overwrite it") }
            try requireWritableDirectory(of: option)
            return .file(option)
        case S_IFDIR:
            return try directory(option)
        case S_IFLNK:
            var followed = stat()
            guard stat(option, &followed) == 0 else {
                throw CommandFailure(.failed, "\(option) is a dangling symbolic link; lensctl does not write through links")
            }
            if followed.st_mode & S_IFMT == S_IFDIR { return try directory(option) }
            throw CommandFailure(.failed, "\(option) is a symbolic link; lensctl replaces regular files only "
                                 + "(name the file itself, or -o - for standard output)")
        default:
            throw CommandFailure(.failed, "\(option) is \(kind(info.st_mode)), not a regular file; lensctl replaces "
                                 + "regular files only, even with --force (-o - writes to standard output)")
        }
    }

    /// Writes a photo's bytes; returns the absolute path, or "-" for standard output.
    static func write(_ bytes: Data, to target: Target, name: String, fileExtension: String, overwrite: Bool) throws -> String {
        try write(to: target, name: name, fileExtension: fileExtension, overwrite: overwrite) { fd in
            guard bytes.withUnsafeBytes({ writeAll(fd, $0) }) else { throw failure("cannot write the \(fileExtension) file") }
        }.path
    }

    /// Lets `fill` write the result through the fd it gets (read-write: a caller may read back
    /// what it wrote), then publishes it. To a file: `fill` writes a temporary file beside it,
    /// which is fsynced, then renamed over the target (`overwrite`; checked once more to be a
    /// regular file just before) or hard-linked there, which fails if something appeared
    /// meanwhile. To standard output: `fill` writes an unlinked temporary file, copied out once
    /// `fill` has succeeded. A reader never sees a partial file; if `fill` throws, nothing is left.
    /// Returns the absolute path ("-" for standard output) and what `fill` returned.
    static func write<T>(to target: Target, name: String, fileExtension: String, overwrite: Bool,
                         fill: (Int32) throws -> T) throws -> (path: String, filled: T) {
        guard let path = target.path(name: name, fileExtension: fileExtension) else { return try writeToStandardOutput(fill) }
        let target = URL(fileURLWithPath: path).standardizedFileURL
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp").path
        let fd = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
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
            // What was checked before the capture may have been swapped for a device or a link since.
            var info = stat()
            if lstat(target.path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
                throw CommandFailure(.failed, "\(target.path) is no longer a regular file (now \(kind(info.st_mode))); not replaced")
            }
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

    private static func writeToStandardOutput<T>(_ fill: (Int32) throws -> T) throws -> (path: String, filled: T) {
        var template = Array("\(NSTemporaryDirectory())/lensctl-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure("cannot create a temporary file in \(NSTemporaryDirectory())") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        defer { close(fd) }
        let filled = try fill(fd)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw failure("cannot read back the temporary file") }
            if count == 0 { return ("-", filled) }
            guard buffer.withUnsafeBytes({ writeAll(STDOUT_FILENO, UnsafeRawBufferPointer(rebasing: $0[..<count])) }) else {
                throw failure("cannot write to standard output")
            }
            offset += off_t(count)
        }
    }

    private static func directory(_ path: String) throws -> Target {
        guard access(path, W_OK) == 0 else { throw failure("cannot write to \(path)") }
        return .directory(path)
    }

    private static func requireWritableDirectory(of path: String) throws {
        let directory = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
        guard access(directory, W_OK) == 0 else { throw failure("cannot write to \(directory)") }
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        case S_IFDIR: "a directory"
        default: "not a regular file"
        }
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
