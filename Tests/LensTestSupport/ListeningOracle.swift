import Foundation

/// A running Python oracle that serves on 127.0.0.1 and names its URL in its first line
/// (local_tsa.py, est_server.py): ready once that line arrives, stopped by its PID — and in any
/// case when this process ends, since it exits when the pipe on its stdin (`--exit-with-stdin`) closes.
final class ListeningOracle {
    /// The URL its first line names, from `scheme` on.
    let url: String
    private let process: Process
    /// Its stdin: open while this object lives, closed by the kernel when this process dies.
    private let lifeline = Pipe()

    init(_ arguments: [String], scheme: String) throws {
        let name = (arguments[0] as NSString).lastPathComponent
        process = Process()
        process.executableURL = URL(fileURLWithPath: try TestTools.python())
        process.arguments = arguments
        process.standardInput = lifeline
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line comes once the socket listens: reading it is the readiness wait.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                process.waitUntilExit()
                throw TestToolError("\(name) exited \(process.terminationStatus) before listening")
            }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: scheme) else { throw TestToolError("\(name) said: \(text)") }
        url = String(text[range.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Down: connections are refused from now on.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    deinit { stop() }
}
