import Foundation

/// Tests/oracle/est_server.py as a running EST server on 127.0.0.1 — a stand-in for a
/// production EST CA, which cannot run here — issuing from an organization CA of its own (`ca`)
/// with TLS from a PKI of its own (make_server_cert.sh in `tls`). Started here, ready once it
/// prints its URL, stopped by its PID (or when this process ends: it exits when the pipe on its
/// stdin closes).
public final class ESTServer {
    /// How the server answers from the next request on (est_server.py --mode-file).
    public enum Mode: String {
        case ok, error
        case foreignCACertificates = "foreign-cacerts"
        case otherKey = "other-key"
        case foreignIssuer = "foreign-issuer"
        /// With an EK CA: refuse (403) a request whose TPM evidence does not verify; issue at
        /// assurance level 1 whatever the evidence.
        case requireAL2 = "require-al2"
        case ignoreEvidence = "ignore-evidence"
    }

    /// One answered request, from the server's log.
    public struct Request: Equatable {
        public var operation: String
        public var status: Int
        /// The issued certificate's serial (decimal, as c2pa-rs shows it), on a 200 to an enrollment.
        public var serial: String?
        /// With an EK CA: the assurance level it issued at, "al1" or "al2".
        public var level: String?
    }

    /// The EST base URL (https://127.0.0.1:PORT/.well-known/est).
    public private(set) var url = ""
    /// The organization CA it issues from (org-trust-anchor is its root).
    public let ca: OrganizationCA
    /// The root of its TLS certificate (est-ca), and an unrelated root that must be refused.
    public let tlsRoot: URL
    public let unrelatedTLSRoot: URL
    private let arguments: [String]
    private let modeFile: URL
    private let logFile: URL
    private let evidenceLogFile: URL
    private var running: ListeningOracle?

    /// Makes its CA and TLS PKI in `directory`; it accepts `credential` (user:password) and
    /// issues certificates valid for `minutes`; with `ekCA` (a TPM maker's CA, PEM) it checks
    /// each request's TPM evidence and issues at assurance level 2 only when that verifies.
    public init(in directory: URL, credential: String, minutes: Double = 5, ekCA: URL? = nil) throws {
        ca = try OrganizationCA(in: directory.appendingPathComponent("org-ca"))
        let tls = directory.appendingPathComponent("tls")
        try OrganizationCA.run(["/bin/bash", TestTools.oracleDir.appendingPathComponent("make_server_cert.sh").path, tls.path])
        tlsRoot = tls.appendingPathComponent("ca.pem")
        unrelatedTLSRoot = tls.appendingPathComponent("other-ca.pem")
        modeFile = directory.appendingPathComponent("est-mode")
        logFile = directory.appendingPathComponent("est-requests.log")
        let evidenceLog = directory.appendingPathComponent("est-evidence.log")
        evidenceLogFile = evidenceLog
        arguments = [TestTools.oracleDir.appendingPathComponent("est_server.py").path, ca.directory.path, tls.path,
                     "--credential", credential, "--minutes", String(minutes), "--mode-file", modeFile.path,
                     "--log", logFile.path, "--exit-with-stdin"]
            + (ekCA.map { ["--ek-ca", $0.path, "--evidence-log", evidenceLog.path] } ?? [])
        try start(port: nil)
    }

    deinit { stop() }

    /// Writes `line` as an est-credential-file: root-owned, 0640, group `group` (lensd's, when it
    /// runs as its own user).
    public static func writeCredential(_ line: String, to file: URL, group: String = "root") throws {
        try Data("\(line)\n".utf8).write(to: file)
        try OrganizationCA.run(["chown", "root:\(group)", file.path])
        try OrganizationCA.run(["chmod", "0640", file.path])
    }

    /// The port it listens on.
    public var port: Int { URLComponents(string: url)?.port ?? 0 }

    public func set(_ mode: Mode) throws {
        try Data(mode.rawValue.utf8).write(to: modeFile)
    }

    /// Every request answered so far, in order.
    public var requests: [Request] {
        let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 3, let status = Int(fields[2]) else { return nil }
            return Request(operation: fields[1], status: status, serial: fields.count > 3 ? fields[3] : nil,
                           level: fields.count > 4 ? fields[4] : nil)
        }
    }

    /// The server's verdict on each request's TPM evidence, in order: "verified" or why not.
    public var evidenceVerdicts: [String] {
        ((try? String(contentsOf: evidenceLogFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The serials issued so far (200 answers to /simpleenroll and /simplereenroll).
    public var issuedSerials: [String] { requests.compactMap(\.serial) }

    public func count(_ operation: String) -> Int { requests.filter { $0.operation == operation }.count }

    /// Down: connections are refused until `start(port:)` brings it back.
    public func stop() {
        running?.stop()
        running = nil
    }

    /// Starts it on `port` (nil: a free one).
    public func start(port: Int?) throws {
        let running = try ListeningOracle(arguments + (port.map { ["--port", String($0)] } ?? []), scheme: "https://")
        self.running = running
        url = running.url
    }
}
