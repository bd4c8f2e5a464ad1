import Foundation
import Synchronization

/// A GPS receiver on TCP, for gpsd's `tcp://` source: listens on 127.0.0.1 (ephemeral port)
/// and, to every connection, writes the log's epochs at a fixed rate, once, then stays
/// connected and silent (a receiver that stopped talking). A gpsd that reconnects, e.g.
/// after a restart, gets the log from the start again.
public final class GpsdNMEAFeeder: @unchecked Sendable {  // immutable apart from the Mutex
    public let port: UInt16

    private let listener: Int32
    private let epochs: [Data]
    private let epochInterval: TimeInterval
    private let stopping = Mutex(false)
    private let threads = DispatchGroup()

    /// - Parameter epochsPerSecond: at least 4, so that the scenarios stay short.
    public init(log: GpsdNMEALog, epochsPerSecond: Double = 5) throws {
        listener = try GpsdSockets.listen()
        do {
            port = try GpsdSockets.localPort(of: listener)
        } catch {
            close(listener)
            throw error
        }
        epochs = log.epochs
        epochInterval = 1 / epochsPerSecond
        run { self.acceptConnections() }
    }

    /// Closes every connection and the listener; returns once the feeder's threads are done.
    public func stop() {
        let wasStopping = stopping.withLock { stopping in
            defer { stopping = true }
            return stopping
        }
        if !wasStopping { threads.wait() }
    }

    private var isStopping: Bool { stopping.withLock { $0 } }

    private func run(_ body: @escaping @Sendable () -> Void) {
        threads.enter()
        Thread {
            body()
            self.threads.leave()
        }.start()
    }

    private func acceptConnections() {
        defer { close(listener) }
        while !isStopping {
            guard wait(for: listener) else { continue }
            let connection = accept(listener, nil, nil)
            if connection >= 0 {
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                run { self.feed(connection) }
            }
        }
    }

    private func feed(_ connection: Int32) {
        defer { close(connection) }
        for epoch in epochs {
            guard !isStopping, send(epoch, to: connection) else { return }
            Thread.sleep(forTimeInterval: epochInterval)
        }
        // Silent but connected until gpsd hangs up or the test ends; whatever gpsd writes
        // (it may probe the "device") is discarded.
        var scratch = [UInt8](repeating: 0, count: 512)
        while !isStopping {
            if wait(for: connection), recv(connection, &scratch, scratch.count, 0) <= 0 { return }
        }
    }

    /// Whether `fd` became readable within 100 ms (short, so that `stop` is noticed).
    private func wait(for fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 100) > 0
    }

    /// False once gpsd has gone away. MSG_NOSIGNAL: a killed gpsd must not SIGPIPE the tests.
    private func send(_ data: Data, to connection: Int32) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = Glibc.send(
                    connection, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }
}
