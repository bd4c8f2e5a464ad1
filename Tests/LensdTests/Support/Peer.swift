import Foundation
import LensTestSupport

/// lensd-test-peer run as a separate process (optionally as another user); its output is a file
/// the test can follow line by line.
final class PeerProcess {
    let process = Process()
    let output: URL
    /// The peer's stdin, for its `readline` steps.
    private let input = Pipe()

    init(address: String, steps: [String], user: String? = nil, directory: TemporaryDirectory) throws {
        output = directory.file("peer-\(UUID().uuidString.prefix(8)).out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let binary = try DaemonUnderTest.installedBinary("lensd-test-peer")
        let argv = [binary, "--address", address] + steps
        let command = user.map { TestUsers.asUser($0, argv) } ?? argv
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = input
        try process.run()
    }

    var lines: [String] {
        ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Waits for a line starting with `prefix`.
    @discardableResult
    func waitForLine(_ prefix: String, timeout: TimeInterval = 20) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return line }
            if !process.isRunning, !lines.contains(where: { $0.hasPrefix(prefix) }) {
                throw TestToolError("peer exited \(process.terminationStatus) before '\(prefix)': \(lines)")
            }
            usleep(20_000)
        }
        throw TestToolError("peer printed no '\(prefix)' within \(timeout) s: \(lines)")
    }

    /// Lets a waiting `readline` step go on.
    func proceed() {
        input.fileHandleForWriting.write(Data("go\n".utf8))
    }

    func finish(timeout: TimeInterval = 60) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            guard Date() < deadline else {
                process.terminate()
                throw TestToolError("peer did not finish within \(timeout) s: \(lines)")
            }
            usleep(20_000)
        }
        return process.terminationStatus
    }

    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { kill() }
}
