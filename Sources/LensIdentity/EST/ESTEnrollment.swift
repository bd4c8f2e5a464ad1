import FoundationEssentials
import Glibc
import LensCrypto
import LensStorage
import LensSystem

/// `enrollment = est`: lensd enrolls its device key with the organization's CA over EST
/// (RFC 7030) and renews it there, installing each issued chain through the same checks as
/// `lensctl enroll install` (OrganizationEnrollment.install). Blocking: run it on a worker thread.
public struct ESTEnrollment: Sendable {
    public var identity: IdentityConfiguration
    public var client: ESTClient
    /// est-credential-file: root-owned `user:password` for /simpleenroll (RFC 7030 §3.2.3).
    public var credentialFile: String?

    /// How a renewal went about it.
    public enum Renewal: Equatable, Sendable {
        /// /simplereenroll with a new key, authenticated by the current certificate in TLS.
        case newKey
        /// /simplereenroll with the same key: the administrator's key file or credential is not lensd's to replace.
        case sameKey
        /// The key lives in a PKCS#11 token or the TPM, which libcurl cannot use for TLS here:
        /// /simpleenroll again with the credential, for the same key.
        case credential
    }

    /// Where a new key waits until the chain issued for it is installed.
    static let nextKeyFileName = "device.next.key"

    public init(identity: IdentityConfiguration, client: ESTClient, credentialFile: String?) {
        self.identity = identity
        self.client = client
        self.credentialFile = credentialFile
    }

    /// The first enrollment: the device key (made when there is none), /cacerts (accepted only
    /// when they lead to org-trust-anchor), /simpleenroll with the credential, and the install.
    public func enroll(now: Date) throws(ESTFailure) {
        let key = try deviceKey()
        let caCertificates = try acceptedCACertificates(now: now)
        let issued = try client.enroll(try request(for: key), credential: try credential())
        try install(issued, caCertificates: caCertificates, key: key, now: now)
    }

    /// Renews the installed certificate (which must still be valid: it authenticates the request).
    @discardableResult
    public func renew(now: Date) throws(ESTFailure) -> Renewal {
        let key = try deviceKey()
        guard let current = key as? PrivateKey else {
            try enroll(now: now)
            return .credential
        }
        let chain: [Certificate]
        do { chain = try OrganizationIdentity.load(identity).chain } catch { throw .local("renewing: \(error.problem)") }
        guard let leaf = chain.first else { throw .local("renewing: there is no installed certificate") }
        let caCertificates = try acceptedCACertificates(now: now)
        let keyPEM: String
        do { keyPEM = try current.pkcs8PEM() } catch { throw .local("the device key cannot be handed to TLS: \(error)") }
        guard ownsKeyFile else {
            let issued = try client.reenroll(try request(for: current), certificatePEM: leaf.pem, keyPEM: keyPEM)
            try install(issued, caCertificates: caCertificates, key: current, now: now)
            return .sameKey
        }
        let next = try makeNextKey()
        let issued = try client.reenroll(try request(for: next), certificatePEM: leaf.pem, keyPEM: keyPEM)
        try install(issued, caCertificates: caCertificates, key: next, now: now)
        try promoteNextKey()
        return .newKey
    }

    /// After a crash between installing a renewed chain and promoting its key: the waiting key
    /// becomes the device key when the installed leaf certifies it; otherwise it is removed.
    public static func finishInterruptedRenewal(_ identity: IdentityConfiguration) {
        let directory = OrganizationIdentity.directory(identity)
        let nextPath = "\(directory)/\(nextKeyFileName)"
        guard identity.enrollment == .est, FileManager.default.fileExists(atPath: nextPath) else { return }
        let remedy = "remove \(nextPath)"
        let chainPath = OrganizationIdentity.chainPath(identity)
        let leaf = try? CredentialFile.parseCertificates(
            CredentialFile.read(chainPath, "the installed certificate chain", isSecret: false, remedy: remedy),
            "the installed certificate chain", path: chainPath, remedy: remedy).first
        let next = try? CredentialFile.parseKey(
            CredentialFile.read(nextPath, "the renewed device key", isSecret: true, remedy: remedy), "the renewed device key",
            path: nextPath, remedy: remedy)
        if let leaf, let next, leaf.publicKey == next.publicKey {
            try? FileSystem.rename(nextPath, to: "\(directory)/\(OrganizationIdentity.keyFileName)")
        } else {
            try? FileSystem.unlink(nextPath)
        }
        try? FileSystem.syncDirectory(directory)
    }

    /// lensd made the device key in its own state directory, so a renewal may replace it.
    private var ownsKeyFile: Bool {
        identity.keyPath == nil && identity.pkcs11 == nil && !identity.usesTPM && identity.credentialsDirectory.map {
            !FileManager.default.fileExists(atPath: "\($0)/\(CredentialFile.deviceKeyCredential)")
        } ?? true
    }

    private func deviceKey() throws(ESTFailure) -> any SigningKey {
        do throws(IdentityFailure) {
            guard let key = try OrganizationIdentity.deviceKey(identity, create: true) else { throw IdentityFailure(.missing, "none was made") }
            return key
        } catch {
            throw .local("the device key: \(error.problem)")
        }
    }

    private func credential() throws(ESTFailure) -> String {
        guard let credentialFile else { throw .local("enrolling needs est-credential-file, the user:password the EST server expects") }
        do throws(RootOwnedSecretFile.Unusable) {
            let secret = try RootOwnedSecretFile.line(credentialFile, setting: "est-credential-file", forbidden: 0o027,
                                                      rule: "unreadable by other users (chown root:lensd; chmod 0640)")
            guard secret.contains(":") else { throw RootOwnedSecretFile.Unusable(description: "est-credential-file \(credentialFile) must hold user:password") }
            return secret
        } catch {
            throw .local(error.description)
        }
    }

    /// /cacerts, each of which must lead to the organization's root.
    private func acceptedCACertificates(now: Date) throws(ESTFailure) -> [Certificate] {
        let anchor: Certificate
        do { anchor = try OrganizationIdentity.trustAnchor(identity).0 } catch { throw .local(error.problem) }
        let certificates = try client.caCertificates()
        for certificate in certificates {
            if let why = ChainVerifier.verify(leaf: certificate, intermediates: certificates, anchors: [anchor], at: now) {
                throw .refusedAnswer("/cacerts: \(certificate.subject.oneLine) does not lead to org-trust-anchor (\(why))")
            }
        }
        return certificates
    }

    private func request(for key: any SigningKey) throws(ESTFailure) -> [UInt8] {
        let attributes = try TPMEvidenceAttribute.attributes(identity)
        do {
            let name = identity.deviceName.isEmpty ? "lensd device" : String(identity.deviceName.prefix(64))
            return try CertificateRequest.makeDER(subject: DistinguishedName(commonName: name), dnsNames: [], key: key, attributes: attributes)
        } catch {
            throw .local("cannot create the certificate request: \(error)")
        }
    }

    /// The issued leaf, then the intermediates up to (not including) a root, installed as
    /// `lensctl enroll install` installs a chain, for `key`.
    private func install(_ issued: [Certificate], caCertificates: [Certificate], key: any SigningKey, now: Date) throws(ESTFailure) {
        guard let leaf = issued.first(where: { $0.isCA != true }) else {
            throw .refusedAnswer("the issued certificates hold no end-entity certificate")
        }
        var chain = [leaf]
        let candidates = (issued + caCertificates).filter { !$0.isSelfIssued }
        while let issuer = candidates.first(where: { $0.subject == chain.last!.issuer && !chain.contains($0) }) {
            chain.append(issuer)
        }
        do {
            try OrganizationEnrollment.install(chain.map(\.pem).joined(), identity, now: now, key: key)
        } catch {
            throw .refusedAnswer(error.problem)
        }
    }

    private func makeNextKey() throws(ESTFailure) -> PrivateKey {
        do {
            let key = try PrivateKey.generate(.p256)
            try OrganizationIdentity.store(Array(try key.pkcs8PEM().utf8), as: Self.nextKeyFileName, mode: 0o600, identity)
            return key
        } catch {
            throw .local("cannot make the renewed device key in \(OrganizationIdentity.directory(identity)): \(error)")
        }
    }

    /// The new chain is installed: its key replaces the old one, which is gone with the rename.
    private func promoteNextKey() throws(ESTFailure) {
        let directory = OrganizationIdentity.directory(identity)
        do {
            try FileSystem.rename("\(directory)/\(Self.nextKeyFileName)", to: "\(directory)/\(OrganizationIdentity.keyFileName)")
            try FileSystem.syncDirectory(directory)
        } catch {
            throw .local("the renewed chain is installed but its key could not replace the old one: \(error)")
        }
    }
}
