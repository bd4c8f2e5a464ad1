import Foundation
import Synchronization

/// One `c2pa_verdict.py --serve` for the whole test process, asked one verdict at a time: each
/// run of the script spent ~0.1 s of CPU importing c2pa-python, and the suite asks about a
/// thousand times. The verdicts are the script's own (a fresh c2pa Context and Reader each time).
/// The server reads its requests from a pipe, so it ends with the test process.
final class VerdictServer: Sendable {
    static let shared = VerdictServer()

    private let connection = Mutex<Connection?>(nil)

    /// c2pa_verdict.py's exit code and JSON object for `arguments` (its command line).
    func verdict(_ arguments: [String]) throws -> (status: Int32, json: Data) {
        try connection.withLock { connection in
            // A fresh server for one that died: writing to it would raise SIGPIPE in the test process.
            if connection?.process.isRunning != true { connection = try Connection() }
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
        let process = Process()
        let requests = Pipe(), answers = Pipe()
        var unread = Data()

        init() throws {
            process.executableURL = URL(fileURLWithPath: try TestTools.python())
            process.arguments = [TestTools.oracleDir.appendingPathComponent("c2pa_verdict.py").path, "--serve"]
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
                throw TestToolError("c2pa_verdict.py --serve answered \(String(decoding: line.prefix(200), as: UTF8.self))")
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
                guard !chunk.isEmpty else { throw TestToolError("c2pa_verdict.py --serve ended without an answer") }
                unread += chunk
            }
        }
    }
}
