import FoundationEssentials
import Glibc
import Dispatch
import LensSystem
import Synchronization

/// Writes chunks to a file on its own thread, so hashing the next chunk overlaps writing the last:
/// signing a file then costs about what hashing it costs. One write is in flight at a time; the
/// caller must not touch a chunk's memory until the next `write` or `finish` returns.
package final class BackgroundWriter: Sendable {
    /// What the caller hands the thread: the chunk to write, by address (its memory stays the
    /// caller's, untouched until the next `write` or `finish`), and what the thread reports back.
    /// The semaphores order the hand-off: the caller sets `chunk` only after `idle`, the thread
    /// reads it only after `work`.
    private struct Handoff {
        var chunk: (address: UInt, count: Int)?
        var failure: Error?
    }

    /// A second descriptor of the output (sharing its position), owned by this writer's thread.
    private let file: FileDescriptor
    private let path: String
    private let work = DispatchSemaphore(value: 0)
    private let idle = DispatchSemaphore(value: 1)
    private let stopped = DispatchSemaphore(value: 0)
    private let handoff = Mutex(Handoff())

    package init(output: borrowing POSIXFile) throws {
        file = try output.io("dup") { (file) throws(SystemError) in try file.duplicate() }
        path = output.path
        Threads.start(named: "lensd-writer") { [self] in loop() }
    }

    package func write(_ chunk: UnsafeRawBufferPointer) throws {
        idle.wait()
        if let failure = handoff.withLock({ $0.failure }) { idle.signal(); throw failure }
        let address = UInt(bitPattern: chunk.baseAddress)
        handoff.withLock { $0.chunk = (address, chunk.count) }
        work.signal()
    }

    /// Waits for the last write and stops the thread.
    package func finish() throws {
        idle.wait()
        handoff.withLock { $0.chunk = nil }
        work.signal()
        stopped.wait()
        idle.signal()  // libdispatch traps on freeing a semaphore below its initial value
        if let failure = handoff.withLock({ $0.failure }) { throw failure }
    }

    private func loop() {
        while true {
            work.wait()
            guard let chunk = handoff.withLock({ $0.chunk }) else { break }
            do {
                try file.writeAll(UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: chunk.address), count: chunk.count))
            } catch {
                handoff.withLock { $0.failure = C2PAError.io("write \(path)", error.errno) }
            }
            idle.signal()
        }
        stopped.signal()
    }
}
