import Foundation

/// A TPM 2.0 as a maker ships it, for key attestation tests: swtpm manufactured by swtpm_setup
/// with its EKs and EK certificates from a CA of the test's own (swtpm_localca, `ekCA`), then
/// given an attestation key as a maker (or an AK CA) provisions one, with tpm2-tools: a
/// restricted ECDSA signing key under the RSA EK (tpm2_createak), persisted at 0x81020000; a
/// credential activation against the EK (tpm2_makecredential / tpm2_activatecredential) shows it
/// lives beside that EK; then the maker's CA certifies it (extendedKeyUsage tcg-kp-AIKCertificate)
/// and the certificate goes into NV 0x01C90000. swtpm serves one client connection at a time, and lensd holds two
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
        try OrganizationCA.run(["/usr/bin/swtpm_setup", "--tpm2", "--tpm-state", state.path, "--create-ek-cert",
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
        try Self.provisionAttestationKey(tcti: "swtpm:host=127.0.0.1,port=\(port)", ca: ca, in: directory)

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

    /// As the class comment says; before tpm2-abrmd holds swtpm's one connection.
    private static func provisionAttestationKey(tcti: String, ca: URL, in directory: URL) throws {
        func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
        func tpm2(_ argv: [String]) throws -> Data {
            let result = try runProcess(["/usr/bin/tpm2"] + argv, env: ["TPM2TOOLS_TCTI": tcti])
            guard result.status == 0 else { throw TestToolError("tpm2 \(argv.joined(separator: " ")): \(String(decoding: result.stderr, as: UTF8.self))") }
            return result.stdout
        }
        let ek = "0x81010001", ak = "0x81020000"
        _ = try tpm2(["readpublic", "-c", ek, "-o", file("ek.pub")])
        _ = try tpm2(["createak", "-C", ek, "-c", file("ak.ctx"), "-G", "ecc256", "-g", "sha256", "-s", "ecdsa",
                      "-u", file("ak.pem"), "-f", "pem", "-n", file("ak.name")])
        _ = try tpm2(["evictcontrol", "-C", "o", "-c", file("ak.ctx"), ak])
        _ = try tpm2(["flushcontext", "-t"])

        let secret = [UInt8]((0..<32).map { _ in UInt8.random(in: 0...255) })
        try Data(secret).write(to: URL(fileURLWithPath: file("secret")))
        let name = try Data(contentsOf: URL(fileURLWithPath: file("ak.name"))).map { String(format: "%02x", $0) }.joined()
        _ = try tpm2(["makecredential", "-T", "none", "-e", file("ek.pub"), "-s", file("secret"), "-n", name, "-o", file("credential")])
        _ = try tpm2(["startauthsession", "--policy-session", "-S", file("session.ctx")])
        _ = try tpm2(["policysecret", "-S", file("session.ctx"), "-c", "e"])
        _ = try tpm2(["activatecredential", "-c", ak, "-C", ek, "-i", file("credential"), "-o", file("activated"),
                      "-P", "session:\(file("session.ctx"))"])
        _ = try tpm2(["flushcontext", file("session.ctx")])
        guard try Data(contentsOf: URL(fileURLWithPath: file("activated"))) == Data(secret) else {
            throw TestToolError("the credential activation did not give back the secret: the AK is not beside the EK")
        }

        try "basicConstraints = critical, CA:FALSE\nkeyUsage = critical, digitalSignature\nextendedKeyUsage = 2.23.133.8.3\n"
            .write(toFile: file("ak.ext"), atomically: true, encoding: .utf8)
        try OrganizationCA.run(["openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                "-keyout", file("placeholder.key"), "-subj", "/CN=swtpm attestation key", "-out", file("ak.csr")])
        try OrganizationCA.run(["openssl", "x509", "-req", "-in", file("ak.csr"), "-force_pubkey", file("ak.pem"),
                                "-CA", ca.appendingPathComponent("issuercert.pem").path, "-CAkey", ca.appendingPathComponent("signkey.pem").path,
                                "-set_serial", "77", "-days", "3650", "-extfile", file("ak.ext"), "-outform", "DER", "-out", file("ak.der")])
        let size = try FileManager.default.attributesOfItem(atPath: file("ak.der"))[.size] as? Int ?? 0
        _ = try tpm2(["nvdefine", "0x01C90000", "-C", "o", "-s", String(size), "-a", "ownerread|ownerwrite|authread|authwrite|no_da"])
        _ = try tpm2(["nvwrite", "0x01C90000", "-C", "o", "-i", file("ak.der")])
    }

    private func stop() {
        for process in processes { process.stop() }
    }
}
