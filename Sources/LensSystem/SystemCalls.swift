#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Synchronization

/// The one file where lensd's modules make file system calls: each wrapper goes through
/// `retrying`, the one EINTR loop, which also consults `FaultInjection`, the seam tests use to
/// make a write, read or fsync fail as a full disk or a failing device would.
public enum SystemCalls {
    /// The calls a test can make fail, by what they do: `.write` is write, pwrite and sendfile;
    /// `.read` is read and pread; `.sync` is fsync and fdatasync; `.connect` is connect (as a
    /// firewall or the unit's IPAddressDeny= refuses one, which no test can set up unprivileged);
    /// `.deviceControl` is ioctl (a camera that answers EBUSY, ENODEV or EIO).
    public enum Operation: Sendable, Hashable {
        case read, write, sync, connect, deviceControl
    }

    /// Test-only: the next calls of an operation fail with a chosen errno before reaching the
    /// kernel. An injected EINTR is retried like a real one, so it proves the retry; any other
    /// errno is what the caller sees. Unarmed, a call costs one relaxed atomic load.
    public enum FaultInjection {
        private struct Fault {
            let operation: Operation
            let errno: Errno
            /// Matching calls to let through first.
            var skip: Int
            var remaining: Int
            /// Only descriptors whose path (/proc/self/fd) starts with this; nil for any.
            let pathPrefix: String?
        }

        private struct State {
            var faults: [Fault] = []
            var delivered = 0
        }

        private static let armed = Atomic<Bool>(false)
        private static let state = Mutex(State())

        /// After `skipping` calls of `operation` succeed, the next `times` fail with `errno`; only
        /// calls on a file whose path starts with `pathPrefix`, when given (a test's own
        /// directory, so that no other code in the process meets the fault). Faults queue in the
        /// order they were injected.
        public static func inject(_ errno: Errno, into operation: Operation, times: Int = 1, skipping: Int = 0,
                                  under pathPrefix: String? = nil) {
            precondition(times > 0 && skipping >= 0)
            state.withLock { state in
                state.faults.append(Fault(operation: operation, errno: errno, skip: skipping, remaining: times,
                                          pathPrefix: pathPrefix))
                armed.store(true, ordering: .releasing)
            }
        }

        /// Drops every fault not yet delivered and the count; tests call it in tearDown.
        public static func reset() {
            state.withLock { state in
                state = State()
                armed.store(false, ordering: .releasing)
            }
        }

        /// Faults injected but not yet delivered.
        public static var pending: Int {
            state.withLock { $0.faults.reduce(0) { $0 + $1.remaining } }
        }

        /// Faults delivered since the last reset.
        public static var delivered: Int {
            state.withLock { $0.delivered }
        }

        /// The errno the next `operation` on `fd` must fail with, if one was injected.
        @inline(__always)
        static func next(_ operation: Operation, fd: Int32) -> Errno? {
            guard armed.load(ordering: .relaxed) else { return nil }
            return take(operation, fd: fd)
        }

        private static func take(_ operation: Operation, fd: Int32) -> Errno? {
            state.withLock { state in
                var path: String?? = .none
                guard let index = state.faults.firstIndex(where: { fault in
                    guard fault.operation == operation else { return false }
                    guard let prefix = fault.pathPrefix else { return true }
                    if path == nil { path = .some(SystemCalls.path(of: fd)) }
                    return path!.map { $0.hasPrefix(prefix) } ?? false
                }) else { return nil }
                guard state.faults[index].skip == 0 else {
                    state.faults[index].skip -= 1
                    return nil
                }
                let errno = state.faults[index].errno
                state.faults[index].remaining -= 1
                if state.faults[index].remaining == 0 { state.faults.remove(at: index) }
                if state.faults.isEmpty { armed.store(false, ordering: .releasing) }
                state.delivered += 1
                return errno
            }
        }
    }

    /// The one EINTR loop: runs `body` (a call returning -1 and setting errno on failure) until
    /// it does not fail with EINTR; any other failure is thrown as a `SystemError` of `call` on
    /// `path`. `operation` names the call for `FaultInjection`.
    @inline(__always)
    static func retrying(_ call: String, path: String? = nil, _ operation: Operation? = nil, fd: Int32 = -1,
                         _ body: () -> Int) throws(SystemError) -> Int {
        while true {
            let result: Int
            if let operation, let injected = FaultInjection.next(operation, fd: fd) {
                result = -1
                errno = injected.rawValue
            } else {
                result = body()
            }
            if result != -1 { return result }
            let failure = Errno.current
            if failure != .interrupted { throw SystemError(call, path: path, errno: failure) }
        }
    }

    /// For modules' own wrappers of calls LensSystem does not make (libv4l2's ioctls, waitpid):
    /// the same EINTR loop, so there is still only one; `operation` lets a test inject faults
    /// into them too.
    public static func retryingInterrupts<Result: SignedInteger>(_ call: String, path: String? = nil,
                                                                _ operation: Operation? = nil, fd: Int32 = -1,
                                                                _ body: () -> Result) throws(SystemError) -> Result {
        Result(try retrying(call, path: path, operation, fd: fd) { Int(body()) })
    }

    // MARK: Sockets

    static func socket(_ family: Int32, _ type: Int32, _ proto: Int32) throws(SystemError) -> Int32 {
        Int32(try retrying("socket") { Int(Glibc.socket(family, type | Int32(SOCK_CLOEXEC.rawValue), proto)) })
    }

    /// Not retried on EINTR: the connection goes on in the background (EALREADY on a retry).
    static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) throws(SystemError) {
        if let injected = FaultInjection.next(.connect, fd: fd) { throw SystemError("connect", errno: injected) }
        guard Glibc.connect(fd, address, length) == 0 else { throw SystemError("connect", errno: .current) }
    }

    // MARK: Descriptors

    static func open(_ path: String, _ flags: Int32, _ mode: mode_t) throws(SystemError) -> Int32 {
        Int32(try retrying("open", path: path) { Int(Glibc.open(path, flags | O_CLOEXEC, mode)) })
    }

    /// poll(2) of one descriptor for `events` (POLLIN, …), at most `milliseconds` (-1: no limit);
    /// the events that came, 0 when the time ran out. Retried on EINTR like every other call
    /// (the limit then starts again: callers' limits are wake-ups, not deadlines).
    static func poll(_ fd: Int32, events: Int16, milliseconds: Int32) throws(SystemError) -> Int16 {
        var poller = pollfd(fd: fd, events: events, revents: 0)
        return try retrying("poll") { Int(Glibc.poll(&poller, 1, milliseconds)) } == 0 ? 0 : poller.revents
    }

    /// poll(2) of several descriptors, each for its events; the events that came to each (all
    /// 0 when the time ran out).
    static func poll(_ requests: [(fd: Int32, events: Int16)], milliseconds: Int32) throws(SystemError) -> [Int16] {
        var pollers = requests.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
        let count = nfds_t(pollers.count)
        _ = try retrying("poll") { Int(Glibc.poll(&pollers, count, milliseconds)) }
        return pollers.map(\.revents)
    }

    /// ioctl(2) with a pointer argument (a device's request structure).
    static func control(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) throws(SystemError) {
        _ = try retrying("ioctl", .deviceControl, fd: fd) { Int(Glibc.ioctl(fd, request, argument)) }
    }

    /// EINTR is not retried: Linux has released the descriptor either way, and a retry could
    /// close one another thread just opened.
    static func close(_ fd: Int32) throws(SystemError) {
        guard Glibc.close(fd) == 0 else {
            let failure = Errno.current
            if failure != .interrupted { throw SystemError("close", errno: failure) }
            return
        }
    }

    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try retrying("read", .read, fd: fd) { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SystemError) -> Int {
        try retrying("pread", .read, fd: fd) { pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        try retrying("write", .write, fd: fd) { Glibc.write(fd, bytes.baseAddress, bytes.count) }
    }

    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws(SystemError) -> Int {
        try retrying("pwrite", .write, fd: fd) { pwrite(fd, bytes.baseAddress, bytes.count, off_t(offset)) }
    }

    /// sendfile(2) from `source` at `offset` (advanced by what was sent) to `destination`'s position.
    static func sendFile(from source: Int32, at offset: inout Int, count: Int, to destination: Int32) throws(SystemError) -> Int {
        var position = off_t(offset)
        let sent = try retrying("sendfile", .write, fd: destination) { sendfile(destination, source, &position, count) }
        offset = Int(position)
        return sent
    }

    static func sync(_ fd: Int32) throws(SystemError) {
        _ = try retrying("fsync", .sync, fd: fd) { Int(fsync(fd)) }
    }

    static func syncData(_ fd: Int32) throws(SystemError) {
        _ = try retrying("fdatasync", .sync, fd: fd) { Int(fdatasync(fd)) }
    }

    static func truncate(_ fd: Int32, to size: Int) throws(SystemError) {
        _ = try retrying("ftruncate") { Int(ftruncate(fd, off_t(size))) }
    }

    static func seek(_ fd: Int32, to offset: Int, whence: Int32) throws(SystemError) -> Int {
        try retrying("lseek") { Int(lseek(fd, off_t(offset), whence)) }
    }

    static func status(_ fd: Int32) throws(SystemError) -> stat {
        var status = stat()
        _ = try retrying("fstat") { Int(fstat(fd, &status)) }
        return status
    }

    static func duplicate(_ fd: Int32) throws(SystemError) -> Int32 {
        Int32(try retrying("fcntl(F_DUPFD_CLOEXEC)") { Int(fcntl(fd, F_DUPFD_CLOEXEC, 0)) })
    }

    /// A new file in `directory`, already unlinked: it vanishes with its last descriptor.
    static func anonymousFile(in directory: String) throws(SystemError) -> Int32 {
        var template = Array("\(directory)/.lens-XXXXXX".utf8CString)
        let fd = Int32(try retrying("mkstemp", path: directory) { Int(template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }) })
        template.withUnsafeBufferPointer { _ = Glibc.unlink($0.baseAddress!) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    /// `size` bytes of `fd` mapped read-only with the pages populated; nil when mmap refuses.
    static func mapReadOnly(_ fd: Int32, size: Int) -> UnsafeRawBufferPointer? {
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0), address != MAP_FAILED else {
            return nil
        }
        return UnsafeRawBufferPointer(start: address, count: size)
    }

    static func unmap(_ bytes: UnsafeRawBufferPointer) {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    /// What /proc/self/fd says `fd` is: a path, or e.g. "pipe:[1234]"; nil if it cannot say.
    static func path(of fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Paths

    static func rename(_ source: String, to destination: String) throws(SystemError) {
        _ = try retrying("rename", path: "\(source) → \(destination)") { Int(Glibc.rename(source, destination)) }
    }

    static func link(_ source: String, to destination: String) throws(SystemError) {
        _ = try retrying("link", path: "\(source) → \(destination)") { Int(Glibc.link(source, destination)) }
    }

    static func unlink(_ path: String) throws(SystemError) {
        _ = try retrying("unlink", path: path) { Int(Glibc.unlink(path)) }
    }

    /// stat(2), or lstat(2) without `followingLinks`.
    static func status(_ path: String, followingLinks: Bool) throws(SystemError) -> stat {
        var status = stat()
        _ = try retrying(followingLinks ? "stat" : "lstat", path: path) { Int(followingLinks ? stat(path, &status) : lstat(path, &status)) }
        return status
    }

    /// realpath(3): the absolute path without symbolic links, "." or "..".
    static func resolvedPath(_ path: String) throws(SystemError) -> String {
        guard let resolved = Glibc.realpath(path, nil) else { throw SystemError("realpath", path: path, errno: .current) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// access(2) with `mode` (R_OK, W_OK, …).
    static func access(_ path: String, _ mode: Int32) throws(SystemError) {
        _ = try retrying("access", path: path) { Int(Glibc.access(path, mode)) }
    }

    // MARK: Names in a directory, by its descriptor (never following a symbolic link there)

    static func open(at directory: Int32, _ name: String, _ flags: Int32, _ mode: mode_t) throws(SystemError) -> Int32 {
        Int32(try retrying("openat", path: name) { Int(openat(directory, name, flags | O_NOFOLLOW | O_CLOEXEC, mode)) })
    }

    static func makeDirectory(at directory: Int32, _ name: String, mode: mode_t) throws(SystemError) {
        _ = try retrying("mkdirat", path: name) { Int(mkdirat(directory, name, mode)) }
    }

    static func rename(at directory: Int32, _ source: String, to destination: String) throws(SystemError) {
        _ = try retrying("renameat", path: "\(source) → \(destination)") { Int(renameat(directory, source, directory, destination)) }
    }

    static func link(at directory: Int32, _ source: String, to destination: String) throws(SystemError) {
        _ = try retrying("linkat", path: "\(source) → \(destination)") { Int(linkat(directory, source, directory, destination, 0)) }
    }

    static func unlink(at directory: Int32, _ name: String) throws(SystemError) {
        _ = try retrying("unlinkat", path: name) { Int(unlinkat(directory, name, 0)) }
    }

    // MARK: More on paths and descriptors

    static func makeDirectory(_ path: String, mode: mode_t) throws(SystemError) {
        _ = try retrying("mkdir", path: path) { Int(Glibc.mkdir(path, mode)) }
    }

    static func removeDirectory(_ path: String) throws(SystemError) {
        _ = try retrying("rmdir", path: path) { Int(Glibc.rmdir(path)) }
    }

    static func changeMode(_ path: String, _ mode: mode_t) throws(SystemError) {
        _ = try retrying("chmod", path: path) { Int(Glibc.chmod(path, mode)) }
    }

    static func changeMode(_ fd: Int32, _ mode: mode_t) throws(SystemError) {
        _ = try retrying("fchmod") { Int(fchmod(fd, mode)) }
    }

    static func addSeals(_ fd: Int32, _ seals: Int32) throws(SystemError) {
        _ = try retrying("fcntl(F_ADD_SEALS)") { Int(lens_add_seals(fd, UInt32(seals))) }
    }

    static func sealableMemoryFile(name: String) throws(SystemError) -> Int32 {
        Int32(try retrying("memfd_create", path: name) { Int(lens_memfd_create_sealable(name)) })
    }

    /// A pipe whose write end (second) does not block; both close on exec.
    static func pipeWithNonblockingWriter() throws(SystemError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        _ = try retrying("pipe2") { Int(lens_pipe_nonblocking_writer(&fds)) }
        return (fds[0], fds[1])
    }

    static func eventCounter() throws(SystemError) -> Int32 {
        Int32(try retrying("eventfd") { Int(lens_eventfd()) })
    }

    /// The names in a directory, without "." and "..".
    static func directoryEntries(_ path: String) throws(SystemError) -> [String] {
        guard let directory = opendir(path) else { throw SystemError("opendir", path: path, errno: .current) }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            // readdir returns NULL both at the end and on error; only errno tells them apart.
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw SystemError("readdir", path: path, errno: .current) }
                return names
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    static func availableBytes(_ path: String) throws(SystemError) -> Int64 {
        var status = statvfs()
        _ = try retrying("statvfs", path: path) { Int(statvfs(path, &status)) }
        return Int64(clamping: UInt64(status.f_bavail).multipliedReportingOverflow(by: UInt64(status.f_frsize)).partialValue)
    }

    static func setDumpable(_ dumpable: Bool) throws(SystemError) {
        _ = try retrying("prctl(PR_SET_DUMPABLE)") { Int(lens_set_dumpable(dumpable ? 1 : 0)) }
    }

    static func setCoreSizeLimit(_ bytes: rlim_t) throws(SystemError) {
        var limit = rlimit(rlim_cur: bytes, rlim_max: bytes)
        _ = try retrying("setrlimit(RLIMIT_CORE)") { Int(setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit)) }
    }

    static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }
}
