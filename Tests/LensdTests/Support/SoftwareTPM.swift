import Foundation
import LensTestSupport

/// swtpm, a real TPM 2.0 emulator, on two free ports of 127.0.0.1, with its state in `directory`;
/// started by the test and stopped by its pid.
final class SoftwareTPM {
    private let process = Process()
    let port: UInt16

    /// The TCTI OpenSSL's tpm2 provider reaches it by.
    var environment: [String: String] { ["TPM2OPENSSL_TCTI": "swtpm:host=127.0.0.1,port=\(port)"] }

    init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The swtpm TCTI finds the control channel on the next port.
        port = try GpsdSockets.freePort()
        let control = port + 1
        process.executableURL = URL(fileURLWithPath: "/usr/bin/swtpm")
        process.arguments = ["socket", "--tpm2", "--tpmstate", "dir=\(directory.path)", "--flags", "not-need-init,startup-clear",
                             "--server", "type=tcp,port=\(port),bindaddr=127.0.0.1",
                             "--ctrl", "type=tcp,port=\(control),bindaddr=127.0.0.1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // A liveness deadline: swtpm listens within milliseconds on any machine.
        let deadline = Date().addingTimeInterval(20)
        while !GpsdSockets.isListening(port: control) {
            guard process.isRunning, Date() < deadline else { throw TestToolError("swtpm did not start listening on \(control)") }
            usleep(20_000)
        }
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    deinit { stop() }
}
