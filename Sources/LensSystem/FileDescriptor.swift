#if canImport(Glibc)
import Glibc
#endif

/// An owned file descriptor: closed when it goes out of scope, so no error path leaks one.
/// `close()` closes it and reports close's error; `take()` hands the raw number over to whoever
/// closes it next (a bus message, a C library). Every call goes through `SystemCalls`, which
/// retries EINTR; failures throw the call's `Errno`.
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
    public consuming func close() throws(Errno) {
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
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(Errno) -> FileDescriptor {
        FileDescriptor(adopting: try SystemCalls.open(path, flags, mode))
    }

    /// A read-write file in `directory` that has no name: it vanishes with its last descriptor.
    public static func anonymousFile(in directory: String) throws(Errno) -> FileDescriptor {
        FileDescriptor(adopting: try SystemCalls.anonymousFile(in: directory))
    }

    /// A second descriptor of the same open file (F_DUPFD_CLOEXEC).
    public func duplicate() throws(Errno) -> FileDescriptor {
        FileDescriptor(adopting: try SystemCalls.duplicate(rawValue))
    }

    // MARK: Reading

    /// Up to `buffer.count` bytes from the current position; 0 means end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try SystemCalls.read(rawValue, into: buffer)
    }

    /// Up to `buffer.count` bytes at `offset`, without moving the position: fewer only at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(Errno) -> Int {
        var done = 0
        while done < buffer.count {
            let count = try SystemCalls.read(rawValue, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]),
                                             at: offset + done)
            if count == 0 { break }
            done += count
        }
        return done
    }

    /// The rest of the file from the current position; nil when it is longer than `limit` bytes.
    public func readAll(limit: Int = .max) throws(Errno) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = try chunk.withUnsafeMutableBufferPointer { (buffer) throws(Errno) in
                try read(into: UnsafeMutableRawBufferPointer(buffer))
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { return nil }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    // MARK: Writing

    /// One write(2) at the current position: it may write fewer bytes than given.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try SystemCalls.write(rawValue, bytes)
    }

    /// All of `bytes` at the current position, continuing after short writes.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var done = 0
        while done < bytes.count {
            done += try SystemCalls.write(rawValue, UnsafeRawBufferPointer(rebasing: bytes[done...]))
        }
    }

    public func writeAll(_ bytes: ArraySlice<UInt8>) throws(Errno) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(Errno) in try writeAll(UnsafeRawBufferPointer(buffer)) }
    }

    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(Errno) in try writeAll(UnsafeRawBufferPointer(buffer)) }
    }

    /// All of `bytes` at `offset`, without moving the position.
    public func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(Errno) {
        var done = 0
        while done < bytes.count {
            done += try SystemCalls.write(rawValue, UnsafeRawBufferPointer(rebasing: bytes[done...]), at: offset + done)
        }
    }

    public func writeAll(_ bytes: [UInt8], at offset: Int) throws(Errno) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(Errno) in try writeAll(UnsafeRawBufferPointer(buffer), at: offset) }
    }

    /// sendfile(2): up to `count` bytes of this file at `offset` (advanced by what was sent)
    /// into `destination` at its position, without copying them through this process.
    public func send(from offset: inout Int, count: Int, to destination: borrowing FileDescriptor) throws(Errno) -> Int {
        try SystemCalls.sendFile(from: rawValue, at: &offset, count: count, to: destination.rawValue)
    }

    // MARK: The file

    /// fsync(2): data and metadata on disk.
    public func sync() throws(Errno) {
        try SystemCalls.sync(rawValue)
    }

    /// fdatasync(2): the data, and the metadata needed to read it.
    public func syncData() throws(Errno) {
        try SystemCalls.syncData(rawValue)
    }

    public func truncate(to size: Int) throws(Errno) {
        try SystemCalls.truncate(rawValue, to: size)
    }

    /// Moves the position to `offset` from the start; returns it.
    @discardableResult
    public func seek(to offset: Int) throws(Errno) -> Int {
        try SystemCalls.seek(rawValue, to: offset, whence: SEEK_SET)
    }

    /// fstat(2).
    public func status() throws(Errno) -> stat {
        try SystemCalls.status(rawValue)
    }

    /// poll(2) for `events` (POLLIN, …) up to `milliseconds` (-1: no limit): the events that
    /// came (POLLERR, POLLHUP and POLLNVAL too), 0 when the time ran out.
    public func poll(for events: Int16, milliseconds: Int32) throws(Errno) -> Int16 {
        try SystemCalls.poll(rawValue, events: events, milliseconds: milliseconds)
    }

    /// Waits up to `milliseconds` for something to read (or the other end's hang-up); false when
    /// the time ran out.
    public func waitUntilReadable(milliseconds: Int32) throws(Errno) -> Bool {
        try SystemCalls.poll(rawValue, events: Int16(POLLIN), milliseconds: milliseconds) != 0
    }

    /// Waits, without a time limit, until this descriptor has room to write or `other` has
    /// something to read (a wake-up); true when it is this one (or its reader left: the next
    /// write says EPIPE).
    public func waitUntilWritable(orReadable other: borrowing FileDescriptor) throws(Errno) -> Bool {
        let events = try SystemCalls.poll([(rawValue, Int16(POLLOUT)), (other.rawValue, Int16(POLLIN))], milliseconds: -1)
        return events[1] == 0
    }

    /// ioctl(2) of a device: `request` with its structure at `argument`.
    public func control(_ request: UInt, _ argument: UnsafeMutableRawPointer) throws(Errno) {
        try SystemCalls.control(rawValue, request, argument)
    }

    /// isatty(3).
    public var isTerminal: Bool {
        SystemCalls.isTerminal(rawValue)
    }

    /// The file's size in bytes (fstat); 0 for a pipe.
    public func size() throws(Errno) -> Int {
        Int(try status().st_size)
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
