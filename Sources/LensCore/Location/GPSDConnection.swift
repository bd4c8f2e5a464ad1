import CGPS
import FoundationEssentials
import Glibc

/// One libgps session with gpsd, watching JSON reports: opening, reading without ever
/// blocking, and closing. It owns the socket and the event-loop watch on it; dropping the
/// connection removes the watch first and then closes the socket.
final class GPSDConnection {
    struct OpenError: Error, CustomStringConvertible {
        let description: String
    }

    /// What one drain of the socket produced.
    struct Batch {
        /// The fix of the last TPV report read; earlier ones in the same batch are already
        /// superseded.
        var lastTPV: gps_fix_t?
        /// Whether gpsd said anything at all.
        var receivedReports = false
        /// Set when the connection is gone: errno of the failed read (0 = gpsd closed it).
        var lostErrno: Int32?
    }

    /// 24 KB, so on the heap; libgps keeps pointers into it between calls, so its address
    /// must never change (a Swift `var` may move).
    private let data: UnsafeMutablePointer<gps_data_t>
    private var watch: ScheduledEvent?

    private init(data: UnsafeMutablePointer<gps_data_t>) {
        self.data = data
    }

    deinit {
        watch?.cancel()  // before the fd is closed and its number possibly reused
        gps_close(data)
        data.deallocate()
    }

    /// Connects to gpsd and asks it to stream JSON reports.
    ///
    /// gps_open resolves and connects synchronously. That is fine for the local gpsd this is
    /// meant for: a local connect is accepted or refused at once.
    static func open(host: String, port: String) throws(OpenError) -> GPSDConnection {
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        UnsafeMutableRawPointer(data).initializeMemory(
            as: UInt8.self, repeating: 0, count: MemoryLayout<gps_data_t>.size)
        guard gps_open(host, port, data) == 0 else {
            // libgps reports its own negative NL_* codes through errno, e.g. -6 NL_NOCONNECT.
            let code = errno
            data.deallocate()
            throw OpenError(description: String(cString: gps_errstr(code)))
        }
        let connection = GPSDConnection(data: data)  // from here on, deinit closes
        guard gps_stream(data, WATCH_ENABLE | WATCH_JSON, nil) == 0 else {
            throw OpenError(description: "gpsd did not accept the WATCH request")
        }
        // Non-blocking, because gps_waiting() stays true while libgps holds part of a line and
        // gps_read() then calls recv(): on a blocking socket that would stall the event loop
        // until gpsd finished the line. On EAGAIN 3.22's gps_read returns 0 (measured).
        let fd = data.pointee.gps_fd
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        // libgps 3.22 opens the socket without close-on-exec (checked); keep it out of any
        // process the daemon starts.
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        return connection
    }

    /// Calls `handler` on the loop whenever gpsd's socket is readable or has hung up.
    func watch(on scheduler: EventScheduler, _ handler: @escaping () -> Void) throws {
        watch = try scheduler.watchReadable(fd: data.pointee.gps_fd, handler)
    }

    /// Reads every complete report that has arrived, without blocking.
    func drain() -> Batch {
        var batch = Batch()
        repeat {
            // `set` accumulates until the client clears it: a GST read would otherwise still
            // show the previous TPV's MODE_SET (measured with 3.22).
            data.pointee.set = 0
            errno = 0
            let length = gps_read(data, nil, 0)
            if length < 0 {
                // 3.22 returns -1 with errno 0 when gpsd closes the connection.
                batch.lostErrno = errno
                return batch
            }
            if length == 0 { break }  // only part of a line so far
            batch.receivedReports = true
            if data.pointee.set & MODE_SET != 0 {
                batch.lastTPV = data.pointee.fix
            }
        } while gps_waiting(data, 0)
        return batch
    }
}
