import Foundation

/// A real gpsd 3.22 (`/usr/sbin/gpsd`), in the foreground, reading NMEA from a TCP source (a
/// GpsdNMEAFeeder) or a UDP one (scripts/nmea-replay), serving clients on 127.0.0.1:`port`.
/// Stopped by PID only.
public final class GpsdProcess {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    public enum Transport: String { case tcp, udp }

    public let port: UInt16
    private let source: String
    private var process: Process?

    public init(sourcePort: UInt16, transport: Transport = .tcp) throws {
        port = try GpsdSockets.freePort()
        source = "\(transport.rawValue)://127.0.0.1:\(sourcePort)"
    }

    deinit { kill() }

    /// Starts gpsd and returns once it accepts clients.
    /// -N foreground (so the PID is gpsd's), -n read the source without waiting for a client,
    /// -b never write to the "device", -S the client port. As root, gpsd drops to user gpsd.
    public func start() throws {
        precondition(process == nil, "gpsd already running")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/gpsd")
        process.arguments = ["-N", "-n", "-b", "-S", String(port), source]
        // It logs a harmless "unable to connect to the DBUS system bus" on every start.
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(5)
        while !GpsdSockets.isListening(port: port) {
            guard process.isRunning, Date() < deadline else {
                kill()
                throw Failure(description: "gpsd did not start listening on 127.0.0.1:\(port)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Sends `signal` to gpsd's PID until it has exited, and reaps it; harmless when it is not
    /// running. Once is not enough: gpsd 3.22's handler only sets a flag that its main loop reads
    /// after select(), so a SIGTERM landing just before select() goes unseen while the receiver is
    /// silent (a teardown waited 6 minutes in CI, until a second SIGTERM). After 10 s, SIGKILL.
    public func kill(signal: Int32 = SIGTERM) {
        guard let process else { return }
        self.process = nil
        let deadline = Date().addingTimeInterval(10)
        try? waitUntil("gpsd's exit", timeout: 20) {
            guard process.isRunning else { return true }
            _ = Glibc.kill(process.processIdentifier, Date() < deadline ? signal : SIGKILL)
            return false
        }
        process.waitUntilExit()
    }

    public var isRunning: Bool { process?.isRunning ?? false }
}
