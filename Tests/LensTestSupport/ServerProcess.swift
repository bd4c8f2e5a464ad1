import Foundation

/// A process the tests start and stop by PID (lensd, nginx, the Python helpers), its output
/// appended to a log file. Ready once `readiness` holds; that is polled until a generous
/// deadline, it is not a sleep.
public final class ServerProcess {
    public let argv: [String]
    /// What messages call it.
    public let name: String
    public let logPath: String
    /// Added to the inherited environment.
    public var environment: [String: String] = [:]
    public private(set) var process: Process?

    public init(_ argv: [String], name: String? = nil, logPath: String) {
        self.argv = argv
        self.name = name ?? (argv[0] as NSString).lastPathComponent
        self.logPath = logPath
    }

    public func start(timeout: TimeInterval = 20, readiness: () throws -> Bool) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        if !FileManager.default.fileExists(atPath: logPath) { FileManager.default.createFile(atPath: logPath, contents: nil) }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        output.seekToEndOfFile()
        p.standardOutput = output
        p.standardError = output
        p.standardInput = FileHandle.nullDevice
        try p.run()
        process = p
        let deadline = Date().addingTimeInterval(timeout)
        while try !readiness() {
            guard p.isRunning else { throw TestToolError("\(name) exited \(p.terminationStatus): \(log)") }
            guard Date() < deadline else { throw TestToolError("\(name) not ready within \(timeout) s: \(log)") }
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
        let (fd, port) = try bound()
        close(fd)
        return port
    }

    /// A port on 127.0.0.1 held bound but not listening while this lives: connecting to it is
    /// refused, and no other test (another shard's gpsd) can take it meanwhile, as it can a free() one.
    public final class Closed {
        public let port: Int
        private let fd: Int32

        public init() throws { (fd, port) = try LoopbackPort.bound() }

        deinit { close(fd) }
    }

    /// A socket bound to the kernel's pick for 127.0.0.1:0, and its port.
    private static func bound() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestToolError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            let error = TestToolError("bind: \(String(cString: strerror(errno)))")
            close(fd)
            throw error
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
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
