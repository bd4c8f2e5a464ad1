#if canImport(Glibc)
import Glibc
#endif

/// An owned file descriptor: closed when it goes out of scope, so no error path leaks one.
/// `close()` closes it and reports close's error; `take()` hands the raw number over to whoever
/// closes it next (a bus message, a C library). Every call goes through `SystemCalls`, which
/// retries EINTR; failures throw a `SystemError` naming the call and its errno.
public struct FileDescriptor: ~Copyable, Sendable {
    /// The number, for a C API that borrows it for the duration of a call; this value still owns it.
    public let rawValue: Int32

    /// Takes ownership of `rawValue` (from a C library or a bus message).
    public init(adopting rawValue: Int32) {
        self.rawValue = rawValue
    }

    // Errors are not reported here: the descriptor is gone either way. Files whose contents
    // matter are fsynced, or closed with `close()`, before.
    deinit {
        try? SystemCalls.close(rawValue)
    }

    /// Closes the descriptor, reporting close(2)'s error (EIO of a write-back, on NFS).
    public consuming func close() throws(SystemError) {
        let fd = rawValue
        discard self
        try SystemCalls.close(fd)
    }

    /// Hands the descriptor over: the caller now owns the number and must see it closed.
    public consuming func take() -> Int32 {
        let fd = rawValue
        discard self
        return fd
    }

    /// Runs `body` with a descriptor someone else owns (a FileHandle's, standard output) without
    /// taking it over: it is not closed afterwards.
    public static func borrowing<Result, Failure: Error>(
        _ rawValue: Int32, _ body: (borrowing FileDescriptor) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let descriptor = FileDescriptor(adopting: rawValue)
        do {
            let result = try body(descriptor)
            _ = descriptor.take()
            return result
        } catch {
            _ = descriptor.take()
            throw error
        }
    }

    // MARK: Opening

    /// open(2); O_CLOEXEC is always added, so no descriptor leaks into a spawned helper.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(SystemError) -> FileDescriptor {
        FileDescriptor(adopting: try SystemCalls.open(path, flags, mode))
    }

    /// openat(2): `name` (one path component) inside `directory`, never following a symbolic
    /// link there (O_NOFOLLOW: ELOOP); O_CLOEXEC as for `open`.
    public static func open(at directory: borrowing FileDescriptor, _ name: String, _ flags: Int32,
                            mode: mode_t = 0o644) throws(SystemError) -> FileDescriptor {
        FileDescriptor(adopting: try SystemCalls.open(at: directory.rawValue, name, flags, mode))
    }

    /// memfd_create(2) with MFD_CLOEXEC | MFD_ALLOW_SEALING; the name shows in /proc/<pid>/fd.
    public static func sealableMemoryFile(name: String) throws(SystemError) -> FileDescriptor {
        FileDescriptor(adopting: try SystemCalls.sealableMemoryFile(name: name))
    }

    /// eventfd(2) (non-blocking, close-on-exec): a counter another thread writes to wake a poll.
    public static func eventCounter() throws(SystemError) -> FileDescriptor {
        FileDescriptor(adopting: try SystemCalls.eventCounter())
    }

    /// pipe2(2): a read end and a write end that does not block (a full pipe is EAGAIN).
    public static func pipeWithNonblockingWriter() throws(SystemError) -> Pipe {
        let (read, write) = try SystemCalls.pipeWithNonblockingWriter()
        return Pipe(readEnd: FileDescriptor(adopting: read), writeEnd: FileDescriptor(adopting: write))
    }

    /// The two ends pipe2(2) made.
    public struct Pipe: ~Copyable, Sendable {
        public let readEnd: FileDescriptor
        public let writeEnd: FileDescriptor

        /// Hands both numbers over, as `FileDescriptor.take()` does.
        public consuming func take() -> (readEnd: Int32, writeEnd: Int32) {
            (readEnd.take(), writeEnd.take())
        }
    }

    /// A read-write file in `directory` that has no name: it vanishes with its last descriptor.
    public static func anonymousFile(in directory: String) throws(SystemError) -> FileDescriptor {
        FileDescriptor(adopting: try SystemCalls.anonymousFile(in: directory))
    }

    /// A second descriptor of the same open file (F_DUPFD_CLOEXEC).
    public func duplicate() throws(SystemError) -> FileDescriptor {
        FileDescriptor(adopting: try SystemCalls.duplicate(rawValue))
    }

    // MARK: Reading

    /// Up to `buffer.count` bytes from the current position; 0 means end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try SystemCalls.read(rawValue, into: buffer)
    }

    /// Up to `buffer.count` bytes at `offset`, without moving the position: fewer only at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SystemError) -> Int {
        var done = 0
        while done < buffer.count {
            let count = try SystemCalls.read(rawValue, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]),
                                             at: offset + done)
            if count == 0 { break }
            done += count
        }
        return done
    }

    /// Exactly `count` bytes at `offset`; a file that ends before them fails with EIO.
    public func read(count: Int, at offset: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try bytes.withUnsafeMutableBufferPointer { (buffer) throws(SystemError) in
            try self.read(into: UnsafeMutableRawBufferPointer(buffer), at: offset)
        }
        guard read == count else { throw SystemError("pread", errno: .io) }
        return bytes
    }

    /// The rest of the file from the current position; fails with EFBIG beyond `limit` bytes
    /// rather than filling memory.
    public func readAll(limit: Int = .max) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = try chunk.withUnsafeMutableBufferPointer { (buffer) throws(SystemError) in
                try read(into: UnsafeMutableRawBufferPointer(buffer))
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw SystemError("read", errno: .fileTooLarge) }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    // MARK: Writing

    /// One write(2) at the current position: it may write fewer bytes than given.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        try SystemCalls.write(rawValue, bytes)
    }

    /// All of `bytes` at the current position, continuing after short writes.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            done += try SystemCalls.write(rawValue, UnsafeRawBufferPointer(rebasing: bytes[done...]))
        }
    }

    public func writeAll(_ bytes: ArraySlice<UInt8>) throws(SystemError) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(SystemError) in try writeAll(UnsafeRawBufferPointer(buffer)) }
    }

    public func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(SystemError) in try writeAll(UnsafeRawBufferPointer(buffer)) }
    }

    /// All of `bytes` at `offset`, without moving the position.
    public func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            done += try SystemCalls.write(rawValue, UnsafeRawBufferPointer(rebasing: bytes[done...]), at: offset + done)
        }
    }

    public func writeAll(_ bytes: [UInt8], at offset: Int) throws(SystemError) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(SystemError) in try writeAll(UnsafeRawBufferPointer(buffer), at: offset) }
    }

    /// sendfile(2): up to `count` bytes of this file at `offset` (advanced by what was sent)
    /// into `destination` at its position, without copying them through this process.
    public func send(from offset: inout Int, count: Int, to destination: borrowing FileDescriptor) throws(SystemError) -> Int {
        try SystemCalls.sendFile(from: rawValue, at: &offset, count: count, to: destination.rawValue)
    }

    // MARK: The file

    /// fsync(2): data and metadata on disk.
    public func sync() throws(SystemError) {
        try SystemCalls.sync(rawValue)
    }

    /// fdatasync(2): the data, and the metadata needed to read it.
    public func syncData() throws(SystemError) {
        try SystemCalls.syncData(rawValue)
    }

    public func truncate(to size: Int) throws(SystemError) {
        try SystemCalls.truncate(rawValue, to: size)
    }

    /// Moves the position to `offset` from the start; returns it.
    @discardableResult
    public func seek(to offset: Int) throws(SystemError) -> Int {
        try SystemCalls.seek(rawValue, to: offset, whence: SEEK_SET)
    }

    /// fstat(2).
    public func status() throws(SystemError) -> FileStatus {
        FileStatus(try SystemCalls.status(rawValue))
    }

    public func changeMode(_ mode: mode_t) throws(SystemError) {
        try SystemCalls.changeMode(rawValue, mode)
    }

    /// fcntl(F_ADD_SEALS) of a memory file (F_SEAL_WRITE, …).
    public func addSeals(_ seals: Int32) throws(SystemError) {
        try SystemCalls.addSeals(rawValue, seals)
    }

    /// poll(2) for `events` (POLLIN, …) up to `milliseconds` (-1: no limit): the events that
    /// came (POLLERR, POLLHUP and POLLNVAL too), 0 when the time ran out.
    public func poll(for events: Int16, milliseconds: Int32) throws(SystemError) -> Int16 {
        try SystemCalls.poll(rawValue, events: events, milliseconds: milliseconds)
    }

    /// Waits up to `milliseconds` for something to read (or the other end's hang-up); false when
    /// the time ran out.
    public func waitUntilReadable(milliseconds: Int32) throws(SystemError) -> Bool {
        try SystemCalls.poll(rawValue, events: Int16(POLLIN), milliseconds: milliseconds) != 0
    }

    /// Waits, without a time limit, until this descriptor has room to write or `other` has
    /// something to read (a wake-up); true when it is this one (or its reader left: the next
    /// write says EPIPE).
    public func waitUntilWritable(orReadable other: borrowing FileDescriptor) throws(SystemError) -> Bool {
        let events = try SystemCalls.poll([(rawValue, Int16(POLLOUT)), (other.rawValue, Int16(POLLIN))], milliseconds: -1)
        return events[1] == 0
    }

    /// ioctl(2) of a device: `request` with its structure at `argument`.
    public func control(_ request: UInt, _ argument: UnsafeMutableRawPointer) throws(SystemError) {
        try SystemCalls.control(rawValue, request, argument)
    }

    /// isatty(3).
    public var isTerminal: Bool {
        SystemCalls.isTerminal(rawValue)
    }

    /// The file's size in bytes (fstat); 0 for a pipe.
    public func size() throws(SystemError) -> Int {
        try status().size
    }

    /// Runs `body` over the first `size` bytes mapped read-only (pages populated up front); nil
    /// when the file cannot be mapped (a pipe). Whoever can shrink the file meanwhile can make
    /// a read of the lost pages fault (SIGBUS): map only what the process may lose that way.
    public func withMapping<Result, Failure: Error>(
        size: Int, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        guard size > 0, let bytes = SystemCalls.mapReadOnly(rawValue, size: size) else { return nil }
        defer { SystemCalls.unmap(bytes) }
        return try body(bytes)
    }
}
