import Foundation

/// Tests/oracle/scripted_http.py on a free loopback port: answers PUTs with a scripted sequence
/// of statuses (or a slow server's "drip" and "mute"), which nginx cannot produce. What it
/// received is stored in `received`, and every request logged there.
public final class ScriptedHTTPServer {
    public let port: Int
    public let received: URL
    private let server: ServerProcess

    public init(statuses: String, in directory: TemporaryDirectory) throws {
        port = try LoopbackPort.free()
        received = directory.file("received")
        try FileManager.default.createDirectory(at: received, withIntermediateDirectories: true)
        server = ServerProcess([try TestTools.python(), TestTools.oracleDir.appendingPathComponent("scripted_http.py").path,
                                "\(port)", received.path, statuses], logPath: directory.file("scripted.log").path)
        let port = port
        try server.start { LoopbackPort.isListening(port) }
    }

    public func stop() { server.stop() }

    /// requests.log as it is: "METHOD PATH STATUS LENGTH CONTENT-SHA256 DIGEST AUTHORIZATION SECONDS" a line.
    public func log() throws -> String {
        try String(contentsOf: received.appendingPathComponent("requests.log"), encoding: .utf8)
    }

    /// The log's lines, split at spaces.
    public func requests() throws -> [[String]] {
        try log().split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    }
}
