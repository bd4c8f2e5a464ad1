#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Threads and a lock over pthreads: Foundation's Thread and NSLock live in the Foundation that
/// links all of ICU into lensd and lensctl.
public enum Threads {
    /// Runs `body` on a new thread of its own, named `name` (cut to the 15 bytes Linux keeps).
    /// `body` is sent there: what it captures (a device handed to its reader thread) may be
    /// non-Sendable, as long as the caller keeps no use of it.
    public static func start(named name: String, _ body: sending @escaping () -> Void) {
        let context = Unmanaged.passRetained(ThreadBody(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, runThreadBody, context)
        precondition(result == 0, "pthread_create: \(Errno(rawValue: result))")
        pthread_detach(thread)
    }

    fileprivate static func run(_ context: UnsafeMutableRawPointer) {
        let start = Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue()
        nameCallingThread(start.name)
        start.body()
    }

    /// What pthread_setname_np does (Glibc's module map leaves it out): the thread's comm, seen
    /// in `ps -L`, top and core dumps.
    private static func nameCallingThread(_ name: String) {
        let comm = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard comm >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { Glibc.write(comm, $0.baseAddress, $0.count) }
        close(comm)
    }

    /// Blocks the calling thread for `seconds` (resumed after signals until the time is up).
    public static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}

/// A new thread's start routine (a C function: no captures).
private func runThreadBody(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Threads.run(context!)
    return nil
}

/// Handed to the new thread through pthread_create's context pointer, and used there only.
private final class ThreadBody {
    let name: String
    let body: () -> Void

    init(name: String, body: @escaping () -> Void) {
        self.name = name
        self.body = body
    }
}

/// A mutual-exclusion lock for state that threads share, as NSLock was.
public final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() {
        pthread_mutex_lock(mutex)
    }

    public func unlock() {
        pthread_mutex_unlock(mutex)
    }

    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
