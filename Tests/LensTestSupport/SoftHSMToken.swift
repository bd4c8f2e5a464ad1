import Foundation

/// A SoftHSM 2 token of its own (its own softhsm2.conf and token directory), initialised by
/// `softhsm2-util` and owned by the user lensd runs as.
public struct SoftHSMToken {
    public static let module = "/usr/lib/softhsm/libsofthsm2.so"
    public let directory: URL
    public let label = "lensd"
    public let pin = "4321"
    public var config: URL { directory.appendingPathComponent("softhsm2.conf") }
    public var pinFile: URL { directory.appendingPathComponent("pin") }
    public var tokens: URL { directory.appendingPathComponent("tokens") }
    public var environment: [String: String] { ["SOFTHSM2_CONF": config.path] }

    public init(in directory: URL, owner: String) throws {
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
    public func writePIN(_ text: String, owner: String) throws {
        try "\(text)\n".write(to: pinFile, atomically: true, encoding: .utf8)
        try OrganizationCA.run(["chown", "root:\(owner)", pinFile.path])
        try OrganizationCA.run(["chmod", "0640", pinFile.path])
    }

    /// OpenSC's pkcs11-spy: a module that passes every call on to SoftHSM and logs it.
    public static let spyModule = "/usr/lib/x86_64-linux-gnu/pkcs11/pkcs11-spy.so"
    /// What pkcs11-spy logged of lensd's calls to the token.
    public var spyLog: URL { tokens.appendingPathComponent("spy.log") }
    public var spyEnvironment: [String: String] { ["PKCS11SPY": Self.module, "PKCS11SPY_OUTPUT": spyLog.path] }

    /// pkcs11-tool's description of the token's private keys (its own PKCS#11 client, not lensd's).
    public func privateKeyListing() throws -> String {
        let r = try runProcess(["pkcs11-tool", "--module", Self.module, "--token-label", label, "--login", "--pin", pin,
                                "--list-objects", "--type", "privkey"], env: environment)
        guard r.status == 0 else { throw TestToolError("pkcs11-tool: \(String(decoding: r.stderr, as: UTF8.self))") }
        return String(decoding: r.stdout, as: UTF8.self)
    }

    public func configuration(trustAnchor: URL, module: String = Self.module) -> String {
        """
        enrollment = org
        org-trust-anchor = \(trustAnchor.path)
        key = pkcs11:token=\(label);object=device
        pkcs11-module = \(module)
        pkcs11-pin-file = \(pinFile.path)
        """
    }
}
