import Foundation
import Synchronization

/// One `--serve` process of an oracle script for the whole test process, asked one question at a
/// time: each run of a script spends ~0.1–0.2 s of CPU importing its library (c2pa-python,
/// jsonschema), and the suite asks for ~1000 verdicts and ~60 schema checks. The answers are the
/// script's own, as its command line would give them. The server reads its requests from a pipe,
/// so it ends with the test process.
public final class OracleServer: Sendable {
    /// c2pa_verdict.py: a fresh c2pa Context and Reader for each verdict.
    static let verdicts = OracleServer(script: "c2pa_verdict.py")
    /// json_schema_check.py: lensctl's --json output against docs/schemas/.
    public static let schemaChecks = OracleServer(script: "json_schema_check.py")

    private let script: String
    private let connection = Mutex<Connection?>(nil)

    private init(script: String) { self.script = script }

    /// The script's exit code and JSON answer for `arguments` (its command line).
    public func ask(_ arguments: [String]) throws -> (status: Int32, json: Data) {
        try connection.withLock { connection in
            // A fresh server for one that died: writing to it would raise SIGPIPE in the test process.
            if connection?.process.isRunning != true { connection = try Connection(script: script) }
            do {
                return try connection!.ask(arguments)
            } catch {
                connection?.process.terminate()
                connection = nil
                throw error
            }
        }
    }

    private struct Connection {
        let script: String
        let process = Process()
        let requests = Pipe(), answers = Pipe()
        var unread = Data()

        init(script: String) throws {
            self.script = script
            process.executableURL = URL(fileURLWithPath: try TestTools.python())
            process.arguments = [TestTools.oracleDir.appendingPathComponent(script).path, "--serve"]
            var environment = ProcessInfo.processInfo.environment
            environment["PYTHONDONTWRITEBYTECODE"] = "1"
            process.environment = environment
            process.standardInput = requests
            process.standardOutput = answers
            try process.run()
        }

        mutating func ask(_ arguments: [String]) throws -> (status: Int32, json: Data) {
            let request = try JSONSerialization.data(withJSONObject: arguments) + Data("\n".utf8)
            try requests.fileHandleForWriting.write(contentsOf: request)
            let line = try readLine()
            guard let space = line.firstIndex(of: UInt8(ascii: " ")),
                  let status = Int32(String(decoding: line[..<space], as: UTF8.self)) else {
                throw TestToolError("\(script) --serve answered \(String(decoding: line.prefix(200), as: UTF8.self))")
            }
            return (status, Data(line[line.index(after: space)...]))
        }

        private mutating func readLine() throws -> Data {
            while true {
                if let end = unread.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = unread[unread.startIndex..<end]
                    unread = Data(unread[unread.index(after: end)...])
                    return Data(line)
                }
                let chunk = answers.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw TestToolError("\(script) --serve ended without an answer") }
                unread += chunk
            }
        }
    }
}
