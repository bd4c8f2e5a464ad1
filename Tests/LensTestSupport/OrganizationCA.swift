import Foundation

/// An organization's CA made by the test with `openssl`: a root, and `openssl ca` issuing C2PA
/// signing certificates from certificate requests, as README's enrollment section does it.
public struct OrganizationCA {
    public let directory: URL
    public var root: URL { directory.appendingPathComponent("root.pem") }
    public var rootKey: URL { directory.appendingPathComponent("root.key") }
    public var config: URL { directory.appendingPathComponent("ca.cnf") }

    /// The extensions README tells the organization to issue: the C2PA leaf profile.
    public static let c2paExtensions = """
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature
        extendedKeyUsage = emailProtection, 1.3.6.1.5.5.7.3.36, 1.3.6.1.4.1.62558.2.1
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        """

    /// The C2PA Conformance Program's AL1 claim-signing leaf profile (program 0.2): the C2PA
    /// profile with nonRepudiation, the C2PA certificate policy, an OCSP URI, the assurance level
    /// (.10) and a CPL record ID; `ocspURL` goes in authorityInfoAccess.
    public static func al1Extensions(ocspURL: String) -> String { """
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature, nonRepudiation
        extendedKeyUsage = emailProtection, 1.3.6.1.5.5.7.3.36, 1.3.6.1.4.1.62558.2.1
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        certificatePolicies = 1.3.6.1.4.1.62558.1.1
        authorityInfoAccess = OCSP;URI:\(ocspURL)
        1.3.6.1.4.1.62558.3 = ASN1:OID:1.3.6.1.4.1.62558.3.10
        1.3.6.1.4.1.62558.4 = ASN1:UTF8String:0f8fad5b-d9cb-469f-a165-70867728950e
        """ }

    /// `al1OCSPURL`: the OCSP URI of the leaves the `c2pa_al1` section issues (by default a port nothing listens on).
    public init(in directory: URL, name: String = "Example News", al1OCSPURL: String = "http://127.0.0.1:9/ocsp") throws {
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
            [c2pa_al1]
            \(Self.al1Extensions(ocspURL: al1OCSPURL))
            [est]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = emailProtection, 1.3.6.1.5.5.7.3.36, 1.3.6.1.4.1.62558.2.1, clientAuth
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid:always
            [no_eku]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid:always
            [ocsp_responder]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = OCSPSigning
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

    /// Adds the extension section `[name]` to ca.cnf, for `issue(_:extensions: name)`.
    public func addExtensions(_ name: String, _ extensions: String) throws {
        let handle = try FileHandle(forWritingTo: config)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n[\(name)]\n\(extensions)\n".utf8))
    }

    /// The `est` section issues the C2PA leaf profile plus clientAuth: the certificate then
    /// authenticates its own renewal in TLS (RFC 7030 §3.3.2), which OpenSSL's TLS server checks
    /// the EKU for (est_server.py).
    ///
    /// `openssl ca` signs `request` (PEM) with `extensions` (a section of ca.cnf); the certificate's PEM.
    /// `days` overrides ca.cnf's default_days (365).
    public func issue(_ request: String, extensions: String = "c2pa", startDate: String? = nil, endDate: String? = nil,
                      days: Int? = nil) throws -> String {
        let name = UUID().uuidString
        let csr = directory.appendingPathComponent("\(name).csr")
        let certificate = directory.appendingPathComponent("\(name).pem")
        try request.write(to: csr, atomically: true, encoding: .utf8)
        var argv = ["openssl", "ca", "-batch", "-notext", "-config", config.path, "-extensions", extensions,
                    "-in", csr.path, "-out", certificate.path]
        if let startDate { argv += ["-startdate", startDate] }
        if let endDate { argv += ["-enddate", endDate] }
        if let days { argv += ["-days", String(days)] }
        try Self.run(argv)
        return try String(contentsOf: certificate, encoding: .utf8)
    }

    /// A new P-256 key (PKCS#8 PEM) and the certificate this CA issues for it (PEM).
    public func issueLeaf(commonName: String, extensions: String = "c2pa", country: String? = nil,
                          days: Int? = nil) throws -> (key: String, certificate: String) {
        let name = UUID().uuidString
        let key = directory.appendingPathComponent("\(name).key"), csr = directory.appendingPathComponent("\(name).req")
        try Self.run(["openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                      "-keyout", key.path, "-out", csr.path, "-subj", (country.map { "/C=\($0)" } ?? "") + "/O=Example News/CN=\(commonName)"])
        let certificate = try issue(try String(contentsOf: csr, encoding: .utf8), extensions: extensions, days: days)
        return (try String(contentsOf: key, encoding: .utf8), certificate)
    }

    /// Marks `certificate` (PEM) revoked in the CA's index, which its OCSP responder then reports.
    public func revoke(_ certificate: String) throws {
        let file = directory.appendingPathComponent("\(UUID().uuidString).revoke.pem")
        try certificate.write(to: file, atomically: true, encoding: .utf8)
        try Self.run(["openssl", "ca", "-config", config.path, "-revoke", file.path, "-crl_reason", "keyCompromise"])
    }

    /// `openssl ocsp`'s answer to `request` (DER), from the CA's index;
    /// `validMinutes` sets nextUpdate; `signedBy` another CA makes that CA's delegated responder
    /// sign the answer (a responder this CA never delegated).
    public func ocspResponse(to request: [UInt8], validMinutes: Int? = nil, signedBy responder: OrganizationCA? = nil) throws -> [UInt8] {
        let name = UUID().uuidString
        let input = directory.appendingPathComponent("\(name).ocsp-req"), output = directory.appendingPathComponent("\(name).ocsp-resp")
        try Data(request).write(to: input)
        try Self.run(["openssl", "ocsp"] + (try responderArguments(signer: responder ?? self)) + ["-reqin", input.path, "-respout", output.path]
                     + (validMinutes.map { ["-nmin", String($0)] } ?? []))
        return [UInt8](try Data(contentsOf: output))
    }

    /// A real OCSP responder (`openssl ocsp -port`) for this CA on `port`, started; it reads the
    /// index again when `revoke` changes it. It serves one connection at a time, so it is ready
    /// when it says so, not when a probe connects (a probe would hold it up).
    public func startOCSPResponder(port: UInt16, logPath: String) throws -> ServerProcess {
        let server = ServerProcess(["/usr/bin/openssl", "ocsp", "-port", String(port), "-ignore_err", "-nmin", "60"]
                                   + (try responderArguments()), name: "openssl ocsp", logPath: logPath)
        try server.start { server.log.contains("waiting for OCSP client connections") }
        return server
    }

    /// Answers are signed by a responder the CA delegated (OCSPSigning), as c2pa-rs insists for a
    /// stapled response; made on first use.
    private func responderArguments(signer responderCA: OrganizationCA? = nil) throws -> [String] {
        let (signer, key) = try (responderCA ?? self).delegatedResponder()
        return ["-index", directory.appendingPathComponent("index.txt").path, "-CA", root.path, "-rsigner", signer.path, "-rkey", key.path]
    }

    /// The delegated responder's certificate and key files, made on first use.
    private func delegatedResponder() throws -> (certificate: URL, key: URL) {
        let signer = directory.appendingPathComponent("ocsp-responder.pem"), key = directory.appendingPathComponent("ocsp-responder.key")
        if !FileManager.default.fileExists(atPath: signer.path) {
            let responder = try issueLeaf(commonName: "OCSP responder", extensions: "ocsp_responder")
            try responder.key.write(to: key, atomically: true, encoding: .utf8)
            try responder.certificate.write(to: signer, atomically: true, encoding: .utf8)
        }
        return (signer, key)
    }

    public static func run(_ argv: [String]) throws {
        let r = try runProcess(argv)
        guard r.status == 0 else { throw TestToolError("\(argv.joined(separator: " ")): \(String(decoding: r.stderr, as: UTF8.self))") }
    }
}
