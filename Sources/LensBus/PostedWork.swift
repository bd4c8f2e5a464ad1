import CSystemd
import Glibc
import LensSystem
import Synchronization

/// Work other threads hand to the loop: a locked queue plus an eventfd the loop watches.
/// Nothing but write(2) on the eventfd touches sd-event from outside the loop thread.
final class PostedWork {
    // `queue` is locked and `eventFD` is only written from other threads.
    private let queue = Mutex<[@Sendable () -> Void]>([])
    /// Closed with this object, after the loop detached its source.
    private let eventFD: FileDescriptor
    private var source: OpaquePointer?

    init(event: OpaquePointer) throws {
        do {
            eventFD = try FileDescriptor.eventCounter()
        } catch {
            throw BusError(errno: -error.errno.rawValue, "creating an eventfd")
        }
        var source: OpaquePointer?
        // Unretained: the loop owns this object and detaches the source before releasing it.
        let result = sd_event_add_io(event, &source, eventFD.rawValue, UInt32(EPOLLIN.rawValue), { _, _, _, userdata in
            Unmanaged<PostedWork>.fromOpaque(userdata!).takeUnretainedValue().drain()
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        guard result >= 0 else { throw BusError(errno: result, "watching the eventfd") }
        self.source = source
    }

    func append(_ work: @escaping @Sendable () -> Void) {
        queue.withLock { $0.append(work) }
        var one: UInt64 = 1
        // Fails only with EAGAIN when the counter is saturated, i.e. a wake-up is pending anyway.
        _ = try? withUnsafeBytes(of: &one) { (bytes) throws(SystemError) in try eventFD.write(bytes) }
    }

    /// Called from the loop's deinit, while the event loop is still alive.
    func detach() {
        source = sd_event_source_disable_unref(source)
    }

    private func drain() {
        var counter: UInt64 = 0
        _ = try? withUnsafeMutableBytes(of: &counter) { (bytes) throws(SystemError) in try eventFD.read(into: bytes) }
        let work = queue.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
        for item in work {
            item()
        }
    }
}
