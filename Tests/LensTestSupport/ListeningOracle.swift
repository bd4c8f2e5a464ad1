import Foundation

/// A Python oracle that serves on 127.0.0.1 and names its URL in its first line (local_tsa.py,
/// est_server.py): started with `stdin` as its lifeline, ready once that line arrives.
enum ListeningOracle {
    /// The process and the URL (from `scheme` on) its first line names.
    static func start(_ arguments: [String], stdin: Pipe, scheme: String) throws -> (Process, String) {
        let name = (arguments[0] as NSString).lastPathComponent
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try TestTools.python())
        process.arguments = arguments
        process.standardInput = stdin
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
        return (process, String(text[range.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
