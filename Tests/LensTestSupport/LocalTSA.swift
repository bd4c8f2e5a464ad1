import Foundation

/// Tests/oracle/local_tsa.py as a running RFC 3161 TSA on 127.0.0.1: started here, ready once
/// it prints its URL, stopped by its PID when this object goes (or by `stop()`) — and in any case
/// when this process ends: it exits when the pipe on its stdin closes.
public final class LocalTSA {
    /// How the TSA answers from the next request on (local_tsa.py --mode-file).
    public enum Mode: String {
        case ok, error, truncate
        case wrongImprint = "wrong-imprint"
        case wrongNonce = "wrong-nonce"
    }

    public let url: String
    /// The TSA's root, to trust or not.
    public let root: URL
    private let directory: URL
    private let modeFile: URL
    private var running: ListeningOracle?

    /// `port`: nil takes a free one; give the old one's to bring a stopped TSA back at its URL.
    /// `expired`: the TSA's certificate expired long ago.
    public init(directory: URL, port: Int? = nil, expired: Bool = false) throws {
        self.directory = directory
        root = directory.appendingPathComponent("tsa_root.pem")
        modeFile = directory.appendingPathExtension("mode")
        var arguments = [TestTools.oracleDir.appendingPathComponent("local_tsa.py").path, directory.path,
                         "--mode-file", modeFile.path, "--exit-with-stdin"]
        if let port { arguments += ["--port", String(port)] }
        if expired { arguments.append("--expired") }
        let running = try ListeningOracle(arguments, scheme: "http://")
        self.running = running
        url = running.url
    }

    /// The port it listens on, to start it again there after `stop()`.
    public var port: Int { Int(url.split(separator: ":").last!.trimmingCharacters(in: CharacterSet(charactersIn: "/")))! }

    public func set(_ mode: Mode) throws {
        try Data(mode.rawValue.utf8).write(to: modeFile)
    }

    /// Answers only after `seconds` (past a client's timeout, for instance).
    public func delay(_ seconds: Double) throws {
        try Data("delay \(seconds)".utf8).write(to: modeFile)
    }

    /// Down: connections are refused until a new LocalTSA starts on `port` with this directory.
    public func stop() {
        running?.stop()
        running = nil
    }

    deinit { stop() }
}
