import Glibc
import LensCrypto
import LensStorage
import LensSystem

/// `enrollment = org`: the device key (on a PKCS#11 token, or a software key), the chain the
/// organization's CA issued for it — installed by InstallCertificate as
/// `<state>/enrollment/chain.pem` — and the organization's root (`org-trust-anchor`).
enum OrganizationIdentity {
    static let directoryName = "enrollment"
    static let chainFileName = "chain.pem"
    /// The software device key, when no `key` is configured.
    static let keyFileName = "device.key"
    /// The TPM's wrapped blob of a `key = tpm2:` device key; useless without that TPM.
    static let tpmBlobFileName = "device.tpm2"
    static func enrollRemedy(_ configuration: IdentityConfiguration) -> String {
        configuration.enrollment == .est
            ? "lensd enrolls over EST by itself (est-url); lensctl enroll status says what it waits for"
            : "enroll with lensctl enroll request, have the organization's CA sign the request, then lensctl enroll install CHAIN.pem"
    }

    static func load(_ configuration: IdentityConfiguration) throws(IdentityFailure) -> IdentityMaterial {
        let anchor = try trustAnchor(configuration)
        let remedy = enrollRemedy(configuration)
        guard let key = try deviceKey(configuration, create: false) else {
            throw IdentityFailure(.missing, "there is no device key yet; \(remedy)")
        }
        let path = chainPath(configuration)
        let text = try CredentialFile.read(path, "the installed certificate chain", isSecret: false, remedy: remedy)
        let chain = try CredentialFile.parseCertificates(text, "the installed certificate chain", path: path, remedy: remedy)
        return material(key: key, chain: chain, anchor: anchor, chainPath: path, configuration)
    }

    static func material(key: any SigningKey, chain: [Certificate], anchor: (Certificate, String), chainPath: String,
                         _ configuration: IdentityConfiguration) -> IdentityMaterial {
        IdentityMaterial(key: key, chain: chain, trustAnchor: anchor.0, keyPath: keyName(configuration), chainPath: chainPath,
                         trustAnchorPath: anchor.1, remedy: enrollRemedy(configuration))
    }

    /// The organization's root and its path.
    static func trustAnchor(_ configuration: IdentityConfiguration) throws(IdentityFailure) -> (Certificate, String) {
        guard let path = configuration.organizationTrustAnchorPath else {
            throw IdentityFailure(.missing, "enrollment = org needs org-trust-anchor, the organization's root certificate")
        }
        let remedy = "set org-trust-anchor to the organization's root certificate (PEM)"
        let text = try CredentialFile.read(path, "the organization's trust anchor", isSecret: false, remedy: remedy)
        return (try CredentialFile.parseCertificates(text, "the organization's trust anchor", path: path, remedy: remedy)[0], path)
    }

    /// The device key, made first when `create` and there is none; nil when there is none.
    static func deviceKey(_ configuration: IdentityConfiguration, create: Bool) throws(IdentityFailure) -> (any SigningKey)? {
        if let pkcs11 = configuration.pkcs11 { return try pkcs11.open(create: create) }
        if configuration.usesTPM { return try tpmKey(configuration, create: create) }
        let path = configuration.keyPath ?? "\(directory(configuration))/\(keyFileName)"
        let remedy = "remove \(path) and enroll again"
        do {
            let (text, source) = try CredentialFile.deviceKey(configuration, remedy: remedy, orFile: path) {
                () throws(IdentityFailure) in try CredentialFile.read(path, "the device key", isSecret: true, remedy: remedy)
            }
            return try CredentialFile.parseKey(text, "the device key", path: source, remedy: remedy)
        } catch let failure where failure.state == .missing && create && configuration.keyPath == nil {
            return try generateSoftwareKey(configuration)
        } catch let failure where failure.state == .missing {
            return nil
        }
    }

    static func directory(_ configuration: IdentityConfiguration) -> String {
        "\(configuration.stateDirectory.path)/\(directoryName)"
    }

    static func chainPath(_ configuration: IdentityConfiguration) -> String {
        "\(directory(configuration))/\(chainFileName)"
    }

    static func keyName(_ configuration: IdentityConfiguration) -> String {
        if let pkcs11 = configuration.pkcs11 { return "pkcs11:token=\(pkcs11.uri.token);object=\(pkcs11.uri.object)" }
        if configuration.usesTPM { return "tpm2: (\(directory(configuration))/\(tpmBlobFileName))" }
        return configuration.keyPath ?? "\(directory(configuration))/\(keyFileName)"
    }

    /// Writes `bytes` as `name` in `<state>/enrollment` (0700), atomically.
    static func store(_ bytes: [UInt8], as name: String, mode: mode_t, _ configuration: IdentityConfiguration) throws {
        let path = directory(configuration)
        try FileSystem.makeDirectories(path, mode: 0o700)
        let state = try FileDescriptor.open(configuration.stateDirectory.path, O_RDONLY | O_DIRECTORY)
        let directory = try StateDirectoryEntry.open(directoryName, in: state, as: .directory, label: path)
        try StagedFile(in: directory, writing: [bytes], mode: mode).commit(as: name)
    }

    private static func tpmKey(_ configuration: IdentityConfiguration, create: Bool) throws(IdentityFailure) -> (any SigningKey)? {
        let path = "\(directory(configuration))/\(tpmBlobFileName)"
        let text: String
        do {
            text = try CredentialFile.read(path, "the TPM key blob", isSecret: true, remedy: "remove \(path) and enroll again")
        } catch let failure where failure.state == .missing {
            guard create else { return nil }
            do {
                let made = try TPMKey.generate()
                try store(Array(made.blob.utf8), as: tpmBlobFileName, mode: 0o600, configuration)
                return made.key
            } catch {
                throw IdentityFailure(.invalid, "cannot create the device key in the TPM: \(error)")
            }
        }
        do {
            return try TPMKey.load(blob: text)
        } catch {
            throw IdentityFailure(.invalid, "the TPM cannot load the device key \(path) (another TPM's, or the TPM is unreachable: "
                                  + "/dev/tpmrm0 or TPM2OPENSSL_TCTI): \(error)")
        }
    }

    private static func generateSoftwareKey(_ configuration: IdentityConfiguration) throws(IdentityFailure) -> any SigningKey {
        do {
            let key = try PrivateKey.generate(.p256)
            try store(Array(try key.pkcs8PEM().utf8), as: keyFileName, mode: 0o600, configuration)
            return key
        } catch {
            throw IdentityFailure(.invalid, "cannot create the device key in \(directory(configuration)): \(error)")
        }
    }
}
