import Foundation

/// A real nginx (Debian's) for the outbox tests, in its own prefix under a temporary directory,
/// on 127.0.0.1 only: WebDAV PUT under /dav/ (http and https, the certificate from
/// Tests/oracle/make_server_cert.sh) and under /small/, which takes at most 1 KiB (413 above).
/// nginx writes a request body to client_body_temp_path and renames it into place only when it is
/// complete, so a file under `root` is always a whole upload. One process (master_process off),
/// so stopping or killing it by PID stops everything.
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
        let r = try runProcess(["/bin/bash", TestTools.oracleDir.appendingPathComponent("make_server_cert.sh").path,
                                directory.file("tls").path])
        guard r.status == 0 else { throw TestToolError("make_server_cert.sh: \(String(decoding: r.stderr, as: UTF8.self))") }
        for sub in ["www/dav", "www/small", "body-temp", "logs"] {
            try FileManager.default.createDirectory(at: directory.file(sub), withIntermediateDirectories: true)
        }
        let d = directory.url.path
        let conf = """
        daemon off;
        master_process off;
        error_log \(d)/logs/error.log info;
        pid \(d)/nginx.pid;
        events { worker_connections 64; }
        http {
            access_log \(d)/logs/access.log;
            client_body_temp_path \(d)/body-temp;
            proxy_temp_path \(d)/body-temp/proxy;
            fastcgi_temp_path \(d)/body-temp/fastcgi;
            uwsgi_temp_path \(d)/body-temp/uwsgi;
            scgi_temp_path \(d)/body-temp/scgi;
            client_max_body_size 1g;
            # Bodies go to the temp file from the first KiB, so a test sees an upload under way.
            client_body_buffer_size 1k;
            server {
                listen 127.0.0.1:\(httpPort);
                listen 127.0.0.1:\(httpsPort) ssl;
                ssl_certificate \(d)/tls/server.pem;
                ssl_certificate_key \(d)/tls/server.key;
                root \(d)/www;
                location /dav/ { dav_methods PUT; dav_access user:rw; }
                location /small/ { dav_methods PUT; client_max_body_size 1k; }
            }
        }
        """
        try conf.write(to: directory.file("nginx.conf"), atomically: true, encoding: .utf8)
        server = ServerProcess(["/usr/sbin/nginx", "-p", d, "-e", "\(d)/logs/error.log", "-c", "\(d)/nginx.conf"],
                               logPath: "\(d)/logs/stderr.log")
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

    /// The size of the largest request body nginx is still receiving (0 when none).
    public var partialUploadBytes: Int {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: bodyTemp.path)) ?? []
        return files.compactMap { try? FileManager.default.attributesOfItem(atPath: bodyTemp.appendingPathComponent($0).path)[.size] as? Int }
            .max() ?? 0
    }

    public var errorLog: String { (try? String(contentsOf: directory.file("logs/error.log"), encoding: .utf8)) ?? "" }
}
