import Foundation
import LensTestSupport

/// An organization's CA made by the test with `openssl`: a root, and `openssl ca` issuing C2PA
/// signing certificates from certificate requests, as README's enrollment section does it.
struct OrganizationCA {
    let directory: URL
    var root: URL { directory.appendingPathComponent("root.pem") }
    var rootKey: URL { directory.appendingPathComponent("root.key") }
    var config: URL { directory.appendingPathComponent("ca.cnf") }

    /// The extensions README tells the organization to issue: the C2PA leaf profile.
    static let c2paExtensions = """
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature
        extendedKeyUsage = emailProtection, 1.3.6.1.5.5.7.3.36, 1.3.6.1.4.1.62558.2.1
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        """

    init(in directory: URL, name: String = "Example News") throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: directory.appendingPathComponent("index.txt").path, contents: nil)
        try "1000\n".write(to: directory.appendingPathComponent("serial"), atomically: true, encoding: .utf8)
        try """
            [ca]
            default_ca = org
            [org]
            dir = \(directory.path)
            database = $dir/index.txt
            serial = $dir/serial
            new_certs_dir = $dir
            certificate = $dir/root.pem
            private_key = $dir/root.key
            default_md = sha256
            default_days = 365
            policy = anything
            unique_subject = no
            copy_extensions = none
            [anything]
            commonName = supplied
            organizationName = optional
            organizationalUnitName = optional
            countryName = optional
            [c2pa]
            \(Self.c2paExtensions)
            [no_eku]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid:always
            [root]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid:always
            """.write(to: config, atomically: true, encoding: .utf8)
        try Self.run(["openssl", "req", "-x509", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                      "-keyout", rootKey.path, "-out", root.path, "-days", "3650", "-subj", "/O=\(name)/CN=\(name) Root CA",
                      "-config", config.path, "-extensions", "root"])
    }

    /// `openssl ca` signs `request` (PEM) with `extensions` (a section of ca.cnf); the certificate's PEM.
    func issue(_ request: String, extensions: String = "c2pa", startDate: String? = nil, endDate: String? = nil) throws -> String {
        let name = UUID().uuidString
        let csr = directory.appendingPathComponent("\(name).csr")
        let certificate = directory.appendingPathComponent("\(name).pem")
        try request.write(to: csr, atomically: true, encoding: .utf8)
        var argv = ["openssl", "ca", "-batch", "-notext", "-config", config.path, "-extensions", extensions,
                    "-in", csr.path, "-out", certificate.path]
        if let startDate { argv += ["-startdate", startDate] }
        if let endDate { argv += ["-enddate", endDate] }
        try Self.run(argv)
        return try String(contentsOf: certificate, encoding: .utf8)
    }

    static func run(_ argv: [String]) throws {
        let r = try runProcess(argv)
        guard r.status == 0 else { throw TestToolError("\(argv.joined(separator: " ")): \(String(decoding: r.stderr, as: UTF8.self))") }
    }
}

/// A SoftHSM 2 token of its own (its own softhsm2.conf and token directory), initialised by
/// `softhsm2-util` and owned by the user lensd runs as.
struct SoftHSMToken {
    static let module = "/usr/lib/softhsm/libsofthsm2.so"
    let directory: URL
    let label = "lensd"
    let pin = "4321"
    var config: URL { directory.appendingPathComponent("softhsm2.conf") }
    var pinFile: URL { directory.appendingPathComponent("pin") }
    var tokens: URL { directory.appendingPathComponent("tokens") }
    var environment: [String: String] { ["SOFTHSM2_CONF": config.path] }

    init(in directory: URL, owner: String) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: tokens, withIntermediateDirectories: true)
        try "directories.tokendir = \(tokens.path)\nobjectstore.backend = file\nlog.level = INFO\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let r = try runProcess(["softhsm2-util", "--init-token", "--free", "--label", label, "--so-pin", "12345678", "--pin", pin],
                               env: environment)
        guard r.status == 0 else { throw TestToolError("softhsm2-util: \(String(decoding: r.stderr, as: UTF8.self))") }
        try OrganizationCA.run(["chown", "-R", "\(owner):\(owner)", tokens.path])
        try OrganizationCA.run(["chmod", "0755", directory.path])
        try writePIN(pin, owner: owner)
    }

    /// The PIN file as pkcs11-pin-file wants it: root-owned, readable by lensd's group only.
    func writePIN(_ text: String, owner: String) throws {
        try "\(text)\n".write(to: pinFile, atomically: true, encoding: .utf8)
        try OrganizationCA.run(["chown", "root:\(owner)", pinFile.path])
        try OrganizationCA.run(["chmod", "0640", pinFile.path])
    }

    /// OpenSC's pkcs11-spy: a module that passes every call on to SoftHSM and logs it.
    static let spyModule = "/usr/lib/x86_64-linux-gnu/pkcs11/pkcs11-spy.so"
    /// What pkcs11-spy logged of lensd's calls to the token.
    var spyLog: URL { tokens.appendingPathComponent("spy.log") }
    var spyEnvironment: [String: String] { ["PKCS11SPY": Self.module, "PKCS11SPY_OUTPUT": spyLog.path] }

    /// pkcs11-tool's description of the token's private keys (its own PKCS#11 client, not lensd's).
    func privateKeyListing() throws -> String {
        let r = try runProcess(["pkcs11-tool", "--module", Self.module, "--token-label", label, "--login", "--pin", pin,
                                "--list-objects", "--type", "privkey"], env: environment)
        guard r.status == 0 else { throw TestToolError("pkcs11-tool: \(String(decoding: r.stderr, as: UTF8.self))") }
        return String(decoding: r.stdout, as: UTF8.self)
    }

    func configuration(trustAnchor: URL, module: String = Self.module) -> String {
        """
        enrollment = org
        org-trust-anchor = \(trustAnchor.path)
        key = pkcs11:token=\(label);object=device
        pkcs11-module = \(module)
        pkcs11-pin-file = \(pinFile.path)
        """
    }
}
