import Foundation

/// A test server started by the tests (nginx, the Python helpers), output in a log file, stopped
/// by PID. Ready once `readiness` holds; that is polled until a generous deadline, it is not a sleep.
public final class ServerProcess {
    public let argv: [String]
    public let logPath: String
    private var process: Process?

    public init(_ argv: [String], logPath: String) {
        self.argv = argv
        self.logPath = logPath
    }

    public func start(timeout: TimeInterval = 20, readiness: () -> Bool) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        if !FileManager.default.fileExists(atPath: logPath) { FileManager.default.createFile(atPath: logPath, contents: nil) }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        log.seekToEndOfFile()
        p.standardOutput = log
        p.standardError = log
        p.standardInput = FileHandle.nullDevice
        try p.run()
        process = p
        let deadline = Date().addingTimeInterval(timeout)
        while !readiness() {
            guard p.isRunning else { throw TestToolError("\(argv[0]) exited \(p.terminationStatus): \(log)") }
            guard Date() < deadline else { throw TestToolError("\(argv[0]) not ready within \(timeout) s: \(self.log)") }
            usleep(20_000)
        }
    }

    public var isRunning: Bool { process?.isRunning ?? false }
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Sends `signal` and waits for the exit.
    public func stop(signal: Int32 = SIGTERM) {
        guard let p = process, p.isRunning else { return }
        kill(p.processIdentifier, signal)
        p.waitUntilExit()
    }

    deinit { stop(signal: SIGKILL) }
}

public enum LoopbackPort {
    /// A TCP port on 127.0.0.1 nobody listens on now (the kernel's pick for port 0).
    public static func free() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestToolError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw TestToolError("bind: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    public static func isListening(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
