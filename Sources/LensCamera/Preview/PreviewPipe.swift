import Glibc
import LensSystem
import Synchronization

/// The write end of a preview pipe. A frame, once started, is written whole before the next one
/// (never interleaved): while the pipe is full the writer waits in poll() — without CPU, holding
/// just that frame — until the reader takes more, the reader goes away, or cancel() is called.
/// write() on one thread; cancel() from any.
final class PreviewPipe: Sendable {
    /// The reader closed its end (EPIPE): the preview is over.
    struct ReaderGone: Error {}

    private let writeEnd: Int32
    /// An eventfd that cancel() makes readable, to wake a writer waiting for room.
    private let wake: Int32
    /// Both descriptors are closed: cancel() no longer writes to `wake`, whose number may be reused.
    private let closed = Atomic(false)

    /// The pipe, and its read end for the client (the caller owns and closes that one).
    static func make() throws -> (pipe: PreviewPipe, readEnd: Int32) {
        let wake = try FileDescriptor.eventCounter()
        let ends = try FileDescriptor.pipeWithNonblockingWriter().take()
        return (PreviewPipe(writeEnd: ends.writeEnd, wake: wake.take()), ends.readEnd)
    }

    private init(writeEnd: Int32, wake: Int32) {
        self.writeEnd = writeEnd
        self.wake = wake
    }

    deinit { close() }

    /// Writes all of `frame`, waiting for room as long as it takes; false when cancel() came
    /// first (the frame may then be cut short). Requires the caller's thread to block SIGPIPE.
    func write(_ frame: [UInt8]) throws -> Bool {
        var offset = 0
        while offset < frame.count {
            let attempt = frame.withUnsafeBytes { bytes in
                Result { () throws(SystemError) in
                    try FileDescriptor.borrowing(writeEnd) { (pipe) throws(SystemError) in try pipe.write(UnsafeRawBufferPointer(rebasing: bytes[offset...])) }
                }
            }
            do {
                offset += try attempt.get()
            } catch where error.errno == .wouldBlock {
                guard try waitForRoom() else { return false }
            } catch where error.errno == .brokenPipe {
                throw ReaderGone()
            } catch {
                throw SystemError("write", path: "the preview pipe", errno: error.errno)
            }
        }
        return true
    }

    /// Any thread: a write waiting for room gives up, and so does every later one.
    func cancel() {
        guard !closed.load(ordering: .acquiring) else { return }
        let one: [UInt8] = withUnsafeBytes(of: UInt64(1)) { Array($0) }
        _ = try? FileDescriptor.borrowing(wake) { (eventfd) throws(SystemError) in try eventfd.writeAll(one) }
    }

    /// The reader sees end of file. Only once no write is under way.
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        try? FileDescriptor(adopting: writeEnd).close()
        try? FileDescriptor(adopting: wake).close()
    }

    /// true when the pipe has room (or the reader left: the next write says EPIPE), false when cancelled.
    private func waitForRoom() throws -> Bool {
        do {
            return try FileDescriptor.borrowing(writeEnd) { (pipe) throws(SystemError) in
                try FileDescriptor.borrowing(wake) { (eventfd) throws(SystemError) in try pipe.waitUntilWritable(orReadable: eventfd) }
            }
        } catch {
            throw SystemError("poll", path: "the preview pipe", errno: error.errno)
        }
    }
}
