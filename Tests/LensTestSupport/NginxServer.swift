import Foundation

/// A real nginx (Debian's) for the outbox tests, in its own prefix under a temporary directory,
/// configured by Tests/oracle/nginx_dav.conf (which says what it serves): WebDAV PUT under /dav/
/// over http and https, /small/ answering 413 above 1 KiB.
public final class NginxServer {
    public let directory: TemporaryDirectory
    public let httpPort: Int
    public let httpsPort: Int
    public var root: URL { directory.file("www") }
    public var bodyTemp: URL { directory.file("body-temp") }
    /// ca.pem signs the server's certificate; other-ca.pem is an unrelated root.
    public var trustedCA: URL { directory.file("tls/ca.pem") }
    public var untrustedCA: URL { directory.file("tls/other-ca.pem") }
    private let server: ServerProcess

    public init() throws {
        directory = try TemporaryDirectory(prefix: "lensd-nginx")
        httpPort = try LoopbackPort.free()
        httpsPort = try LoopbackPort.free()
        let r = try runProcess(["/bin/bash", TestTools.oracleDir.appendingPathComponent("prepare_nginx.sh").path,
                                directory.url.path, "\(httpPort)", "\(httpsPort)"])
        guard r.status == 0 else { throw TestToolError("prepare_nginx.sh: \(String(decoding: r.stderr, as: UTF8.self))") }
        let command = String(decoding: r.stdout, as: UTF8.self).split(separator: " ").map(String.init)
        server = ServerProcess(command.map { $0.trimmingCharacters(in: .newlines) }, logPath: directory.file("logs/stderr.log").path)
    }

    public func start() throws {
        let (http, https) = (httpPort, httpsPort)
        try server.start { LoopbackPort.isListening(http) && LoopbackPort.isListening(https) }
    }

    /// SIGTERM stops it; SIGKILL kills it in the middle of whatever it is doing.
    public func stop(signal: Int32 = SIGTERM) { server.stop(signal: signal) }

    public var isRunning: Bool { server.isRunning }

    public func url(tls: Bool, location: String = "dav") -> String {
        tls ? "https://127.0.0.1:\(httpsPort)/\(location)/{name}.{ext}" : "http://127.0.0.1:\(httpPort)/\(location)/{name}.{ext}"
    }

    /// The files nginx stored under /<location>/.
    public func storedFiles(location: String = "dav") -> [URL] {
        let dir = root.appendingPathComponent(location)
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted().map { dir.appendingPathComponent($0) }
    }

    /// The PUT requests in the access log, as "PATH STATUS".
    public var puts: [String] {
        let log = (try? String(contentsOf: directory.file("logs/access.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            guard let request = line.range(of: "\"PUT ") else { return nil }
            let rest = line[request.upperBound...].split(separator: " ")
            guard rest.count >= 3 else { return nil }
            return "\(rest[0]) \(rest[2])"
        }
    }

    /// The PUT requests once the access log holds `count` of them, or after `timeout` what it
    /// holds: nginx logs a request after answering it, so a client that has its answer may look
    /// before the line is there.
    public func puts(count: Int, timeout: TimeInterval = 10) -> [String] {
        var seen: [String] = []
        // Past the deadline the caller's assertion shows what the log holds.
        try? waitUntil("\(count) PUT requests in nginx's access log", timeout: timeout) {
            seen = puts
            return seen.count >= count
        }
        return seen
    }

    /// The size of the largest request body nginx is still receiving (0 when none).
    public var partialUploadBytes: Int {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: bodyTemp.path)) ?? []
        return files.compactMap { try? FileManager.default.attributesOfItem(atPath: bodyTemp.appendingPathComponent($0).path)[.size] as? Int }
            .max() ?? 0
    }

    public var errorLog: String { (try? String(contentsOf: directory.file("logs/error.log"), encoding: .utf8)) ?? "" }
}
