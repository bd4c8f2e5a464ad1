import Foundation

/// A TPM 2.0 as a maker ships it, for key attestation tests: swtpm manufactured by swtpm_setup
/// with an ECC EK (P-384) that can sign (--allow-signing; the standard EK only decrypts) and an
/// EK certificate from a CA of the test's own (swtpm_localca, `ekCA`), stored in the TPM's NV
/// as a maker stores it. swtpm serves one client connection at a time, and lensd holds two
/// (OpenSSL's tpm2 provider and its own tpm2-tss one), so the TPM is reached through tpm2-abrmd,
/// the resource manager a host without /dev/tpmrm0 runs, on a private session bus.
///
/// One per test process (`shared`): OpenSSL's tpm2 provider connects once per process, to the
/// TCTI in its environment then. Every process the tests start is stopped by its PID at exit.
/// Unchecked Sendable: nothing in it changes after init.
public final class AttestingTPM: @unchecked Sendable {
    public static let shared = Result { try AttestingTPM() }

    /// PEM: the EK CA's root and the issuer of the EK certificate (est_server.py --ek-ca).
    public let ekCA: URL
    /// What lensd (and the tpm2 provider) need to reach it: TPM2OPENSSL_TCTI and the bus.
    public let environment: [String: String]
    private let processes: [ServerProcess]

    private init() throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("lensd-attesting-tpm-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        let state = directory.appendingPathComponent("state"), ca = directory.appendingPathComponent("ek-ca")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: ca, withIntermediateDirectories: true)
        let localCA = directory.appendingPathComponent("localca.conf"), setup = directory.appendingPathComponent("swtpm_setup.conf")
        try """
            statedir = \(ca.path)
            signingkey = \(ca.path)/signkey.pem
            issuercert = \(ca.path)/issuercert.pem
            certserial = \(ca.path)/certserial
            """.write(to: localCA, atomically: true, encoding: .utf8)
        try """
            create_certs_tool = /usr/bin/swtpm_localca
            create_certs_tool_config = \(localCA.path)
            create_certs_tool_options = /etc/swtpm-localca.options
            active_pcr_banks = sha256
            """.write(to: setup, atomically: true, encoding: .utf8)
        try OrganizationCA.run(["/usr/bin/swtpm_setup", "--tpm2", "--tpm-state", state.path, "--create-ek-cert", "--allow-signing",
                                "--config", setup.path, "--overwrite", "--logfile", directory.appendingPathComponent("swtpm_setup.log").path])
        ekCA = directory.appendingPathComponent("ek-ca.pem")
        let roots = try ["swtpm-localca-rootca-cert.pem", "issuercert.pem"].map {
            try String(contentsOf: ca.appendingPathComponent($0), encoding: .utf8)
        }
        try roots.joined().write(to: ekCA, atomically: true, encoding: .utf8)

        let port = try GpsdSockets.freePort()
        let swtpm = ServerProcess(["/usr/bin/swtpm", "socket", "--tpm2", "--tpmstate", "dir=\(state.path)", "--flags", "not-need-init,startup-clear",
                                   "--server", "type=tcp,port=\(port),bindaddr=127.0.0.1",
                                   "--ctrl", "type=tcp,port=\(port + 1),bindaddr=127.0.0.1"],
                                  logPath: directory.appendingPathComponent("swtpm.log").path)
        try swtpm.start { GpsdSockets.isListening(port: port + 1) }

        let socket = directory.appendingPathComponent("bus").path, busConfig = directory.appendingPathComponent("bus.conf")
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
            </busconfig>
            """.write(to: busConfig, atomically: true, encoding: .utf8)
        let bus = ServerProcess(["/usr/bin/dbus-daemon", "--nofork", "--config-file=\(busConfig.path)"],
                                logPath: directory.appendingPathComponent("bus.log").path)
        try bus.start { FileManager.default.fileExists(atPath: socket) }

        let busAddress = "unix:path=\(socket)", name = "org.lensd.test.Tabrmd"
        let abrmd = ServerProcess(["/usr/sbin/tpm2-abrmd", "--session", "--allow-root", "--dbus-name=\(name)",
                                   "--tcti=swtpm:host=127.0.0.1,port=\(port)"],
                                  logPath: directory.appendingPathComponent("abrmd.log").path)
        abrmd.environment = ["DBUS_SESSION_BUS_ADDRESS": busAddress]
        try abrmd.start {
            let answer = try runProcess(["/usr/bin/dbus-send", "--bus=\(busAddress)", "--print-reply", "--dest=org.freedesktop.DBus",
                                         "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:\(name)"])
            return String(decoding: answer.stdout, as: UTF8.self).contains("boolean true")
        }
        processes = [abrmd, bus, swtpm]
        environment = ["TPM2OPENSSL_TCTI": "tabrmd:bus_name=\(name),bus_type=session", "DBUS_SESSION_BUS_ADDRESS": busAddress]
        atexit { if case .success(let tpm) = AttestingTPM.shared { tpm.stop() } }
    }

    private func stop() {
        for process in processes { process.stop() }
    }
}
