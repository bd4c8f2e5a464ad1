import Foundation
import LensTestSupport

/// Tests/oracle/local_tsa.py as a running RFC 3161 TSA on 127.0.0.1: started here, ready once
/// it prints its URL, stopped by its PID when this object goes.
final class LocalTSA {
    let url: String
    /// The TSA's root, to trust or not.
    let root: URL
    private let process = Process()

    init(directory: URL) throws {
        root = directory.appendingPathComponent("tsa_root.pem")
        process.executableURL = URL(fileURLWithPath: try TestTools.python())
        process.arguments = [TestTools.oracleDir.appendingPathComponent("local_tsa.py").path, directory.path]
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
                throw TestToolError("local_tsa.py exited \(process.terminationStatus) before listening")
            }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "http://") else { throw TestToolError("local_tsa.py said: \(text)") }
        url = String(text[range.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
}
