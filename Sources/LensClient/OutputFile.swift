import FoundationEssentials
import Glibc
import LensSystem

/// Writing a signed result (photo or video) to a file, as lensctl's `-o` does: all of it or
/// nothing, never over an existing file unless asked, and never in place of anything but a
/// regular file — not a device node, FIFO, socket or symbolic link (`-o /dev/full --force` is
/// refused, the device left alone).
public enum OutputFile {
    /// Where `-o` sends a result, decided before capturing so that a refusal costs no photo or video.
    public enum Target: Sendable, Equatable {
        /// `-o -`: standard output.
        case standardOutput
        /// `-o FILE`.
        case file(String)
        /// `-o DIR`, or no `-o` (the current directory): NAME.jpg or NAME.mp4 inside it.
        case directory(String)

        /// nil for standard output.
        public func path(name: String, fileExtension: String) -> String? {
            switch self {
            case .standardOutput: nil
            case .file(let path): path
            case .directory(let directory): URL(fileURLWithPath: directory).appendingPathComponent("\(name).\(fileExtension)").path
            }
        }

        public var isStandardOutput: Bool {
            if case .standardOutput = self { true } else { false }
        }
    }

    /// Why a target was refused or a write failed, in one readable line.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable {
            /// A misuse of the option (`-o -` to a terminal).
            case usage
            /// `-o` names a directory that does not exist (`DIR/`, or the folder of `DIR/FILE`).
            case noSuchDirectory
            /// Refused (an existing file, a device) or a write that failed.
            case failed
        }

        public let kind: Kind
        public let message: String
        /// The failed call's errno, when one failed (`.noSpace` for a full disk).
        public let errno: Errno?

        init(_ message: String, cause: SystemError? = nil, kind: Kind = .failed) {
            self.message = cause.map { "\(message): \($0.errno)" } ?? message
            self.errno = cause?.errno
            self.kind = kind
        }

        public var description: String { message }
    }

    /// Checks what `-o` names: a file that may be created (or replaced, with `force`, when it is a
    /// regular file), a writable directory, or `-`.
    public static func target(_ option: String?, force: Bool) throws(Failure) -> Target {
        guard let option else { return try directory(".") }
        // Empty is no name: never taken for the current directory (issue 35.10).
        guard !option.isEmpty else { throw Failure("-o needs a file name, not an empty one", kind: .usage) }
        if option == "-" {
            guard !FileDescriptor.borrowing(STDOUT_FILENO, { $0.isTerminal }) else {
                throw Failure("-o - writes binary data to standard output: redirect it to a file or a pipe", kind: .usage)
            }
            return .standardOutput
        }
        let info: FileStatus
        do {
            info = try FileSystem.status(option, followingLinks: false)
        } catch where error.errno == .notFound {
            // A trailing slash means a directory: never a file named after it.
            if option.hasSuffix("/") { throw Failure("no such directory: \(option)", kind: .noSuchDirectory) }
            try requireWritableDirectory(of: option)
            return .file(option)
        } catch {
            throw Failure("cannot inspect \(option)", cause: error)
        }
        switch info.mode & S_IFMT {
        case S_IFREG:
            guard force else { throw Failure("\(option) exists; pass --force to overwrite it") }
            try requireWritableDirectory(of: option)
            return .file(option)
        case S_IFDIR:
            return try directory(option)
        case S_IFLNK:
            guard let followed = try? FileSystem.status(option, followingLinks: true) else {
                throw Failure("\(option) is a dangling symbolic link; lensctl does not write through links")
            }
            if followed.mode & S_IFMT == S_IFDIR { return try directory(option) }
            throw Failure("\(option) is a symbolic link; lensctl replaces regular files only "
                          + "(name the file itself, or -o - for standard output)")
        default:
            throw Failure("\(option) is \(kind(info.mode)), not a regular file; lensctl replaces "
                          + "regular files only, even with --force (-o - writes to standard output)")
        }
    }

    /// Writes a photo's bytes; returns the absolute path, or "-" for standard output.
    public static func write(_ bytes: Data, to target: Target, name: String, fileExtension: String, overwrite: Bool) throws -> String {
        try write(to: target, name: name, fileExtension: fileExtension, overwrite: overwrite) { file in
            do {
                try bytes.withUnsafeBytes { try file.writeAll($0) }
            } catch let error as SystemError {
                throw Failure("cannot write the \(fileExtension) file", cause: error)
            }
        }.path
    }

    /// Lets `fill` write the result through the descriptor it gets (read-write: a caller may
    /// read back what it wrote), then publishes it. To a file: `fill` writes a StagedFile beside
    /// it, which is fsynced, then renamed over the target (`overwrite`; checked once more to be a
    /// regular file just before) or hard-linked there, which fails if something appeared
    /// meanwhile. To standard output: `fill` writes an unlinked temporary file, copied out once
    /// `fill` has succeeded. A reader never sees a partial file; if `fill` or the fsync fails,
    /// nothing is left. Returns the absolute path ("-" for standard output) and what `fill` returned.
    public static func write<T>(to target: Target, name: String, fileExtension: String, overwrite: Bool,
                                fill: (borrowing FileDescriptor) throws -> T) throws -> (path: String, filled: T) {
        guard let path = target.path(name: name, fileExtension: fileExtension) else { return try writeToStandardOutput(fill) }
        let target = URL(fileURLWithPath: path).standardizedFileURL
        let directory = target.deletingLastPathComponent().path
        let staged: StagedFile
        do {
            staged = try StagedFile(inDirectory: directory, label: target.lastPathComponent, mode: 0o666)
        } catch {
            throw Failure("cannot create a temporary file in \(directory)", cause: error)
        }
        let filled = try fill(staged.file)
        try publish(staged, as: target.lastPathComponent, at: target.path, overwrite: overwrite)
        // So the new name survives a crash; best effort, the file itself is already safe.
        try? staged.syncDirectory()
        return (target.path, filled)
    }

    /// Renames the complete file over `path`, or with `overwrite` false links it there.
    private static func publish(_ staged: StagedFile, as name: String, at path: String, overwrite: Bool) throws(Failure) {
        if overwrite {
            // What was checked before the capture may have been swapped for a device or a link since.
            if let info = try? FileSystem.status(path), !info.isRegularFile {
                throw Failure("\(path) is no longer a regular file (now \(kind(info.mode))); not replaced")
            }
            do { try staged.publish(as: name) } catch {
                throw Failure("cannot write \(path)", cause: error)
            }
        } else {
            do { try staged.publish(asNew: name) } catch where error.errno == .exists {
                throw Failure("\(path) exists; pass --force to overwrite it")
            } catch {
                throw Failure("cannot write \(path)", cause: error)
            }
        }
    }

    private static func writeToStandardOutput<T>(_ fill: (borrowing FileDescriptor) throws -> T) throws -> (path: String, filled: T) {
        let directory = FileManager.default.temporaryDirectory.path
        let file = try creating("cannot create a temporary file in \(directory)") { () throws(SystemError) in
            try FileDescriptor.anonymousFile(in: directory)
        }
        let filled = try fill(file)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while true {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBufferPointer { (buffer) throws(SystemError) in
                    try file.read(into: UnsafeMutableRawBufferPointer(buffer), at: offset)
                }
            } catch {
                throw Failure("cannot read back the temporary file", cause: error)
            }
            if count == 0 { return ("-", filled) }
            do {
                try FileDescriptor.borrowing(STDOUT_FILENO) { (output) throws(SystemError) in try output.writeAll(buffer[..<count]) }
            } catch {
                throw Failure("cannot write to standard output", cause: error)
            }
            offset += count
        }
    }

    private static func creating(_ what: String, _ open: () throws(SystemError) -> FileDescriptor) throws(Failure) -> FileDescriptor {
        do { return try open() } catch { throw Failure(what, cause: error) }
    }

    private static func directory(_ path: String) throws(Failure) -> Target {
        do { try FileSystem.checkAccess(path, W_OK) } catch { throw Failure("cannot write to \(path)", cause: error) }
        return .directory(path)
    }

    private static func requireWritableDirectory(of path: String) throws(Failure) {
        let directory = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
        do { try FileSystem.checkAccess(directory, W_OK) } catch where error.errno == .notFound {
            throw Failure("no such directory: \(directory)", kind: .noSuchDirectory)
        } catch {
            throw Failure("cannot write to \(directory)", cause: error)
        }
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
}
