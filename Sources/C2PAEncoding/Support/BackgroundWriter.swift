import FoundationEssentials
import Glibc
import Dispatch
import LensSystem

/// Writes chunks to a file on its own thread, so hashing the next chunk overlaps writing the last:
/// signing a file then costs about what hashing it costs. One write is in flight at a time; the
/// caller must not touch a chunk's memory until the next `write` or `finish` returns.
package final class BackgroundWriter: @unchecked Sendable {  // `pending` is a caller's buffer handed over by the semaphores, not a value a lock could hold
    // Guarded by the semaphores' hand-off: the caller fills `pending` only after `idle`, the thread
    // reads it only after `work`.
    // A second descriptor of the output (sharing its position), owned by this writer's thread.
    private let file: FileDescriptor
    private let path: String
    private let work = DispatchSemaphore(value: 0)
    private let idle = DispatchSemaphore(value: 1)
    private let stopped = DispatchSemaphore(value: 0)
    private var pending: UnsafeRawBufferPointer?
    private var failure: Error?

    package init(output: borrowing POSIXFile) throws {
        file = try output.io("dup") { (file) throws(Errno) in try file.duplicate() }
        path = output.path
        Threads.start(named: "lensd-writer") { [self] in loop() }
    }

    package func write(_ chunk: UnsafeRawBufferPointer) throws {
        idle.wait()
        if let failure { idle.signal(); throw failure }
        pending = chunk
        work.signal()
    }

    /// Waits for the last write and stops the thread.
    package func finish() throws {
        idle.wait()
        pending = nil
        work.signal()
        stopped.wait()
        idle.signal()  // libdispatch traps on freeing a semaphore below its initial value
        if let failure { throw failure }
    }

    private func loop() {
        while true {
            work.wait()
            guard let chunk = pending else { break }
            do { try file.writeAll(chunk) } catch { failure = C2PAError.io("write \(path)", error) }
            idle.signal()
        }
        stopped.signal()
    }
}
