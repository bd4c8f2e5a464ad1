import Foundation
import LensClient

/// Reads a preview pipe in a test: whole frames (cut by LensClient's MJPEGSplitter), waiting with
/// poll() under a liveness deadline so that a stream that stalls fails the test instead of hanging it.
public final class PreviewPipeReader: @unchecked Sendable {  // used by one thread at a time
    private var fd: Int32
    private var splitter = MJPEGSplitter()
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)
    public private(set) var reachedEnd = false

    /// Takes ownership of `fd`.
    public init(fd: Int32) { self.fd = fd }
    deinit { close() }

    /// Closes the read end, as a client that stops watching does.
    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// The next `count` frames, exactly: a read that completed more keeps the rest for the next call.
    public func frames(_ count: Int, timeout: TimeInterval = 20) throws -> [LensPreviewFrame] {
        let deadline = Date().addingTimeInterval(timeout)
        while complete.count < count {
            guard try readSome(until: deadline) else { throw TestToolError("the preview ended after \(complete.count) of \(count) frames") }
        }
        return try take(count)
    }

    /// Everything up to the end of the stream; throws if it does not end by the deadline.
    public func framesToEnd(timeout: TimeInterval = 20) throws -> [LensPreviewFrame] {
        let deadline = Date().addingTimeInterval(timeout)
        while try readSome(until: deadline) {}
        return try take(complete.count)
    }

    /// Frames cut from what was read, not yet handed out.
    private var complete: [[UInt8]] = []

    private func take(_ count: Int) throws -> [LensPreviewFrame] {
        defer { complete.removeFirst(count) }
        return try complete.prefix(count).map { try LensPreviewFrame(jpeg: $0) }
    }

    /// One read; false at the end of the stream.
    private func readSome(until deadline: Date) throws -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
        guard poll(&poller, 1, left) == 1 else { throw TestToolError("no preview data within the deadline") }
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw TestToolError("reading the preview: errno \(errno)") }
        if count == 0 {
            reachedEnd = true
            return false
        }
        complete += try splitter.append(chunk[..<count])
        return true
    }
}
