import FoundationEssentials
import Glibc
import LensCrypto
import LensStorage
import LensSystem

/// The first start of the embedded identity: a device CA issues the device certificate once and
/// is then forgotten. Its key is never written anywhere, so nobody, lensd included, can issue a
/// second certificate under this trust anchor.
enum DeviceEnrollment {
    /// Prefix of the directory an enrollment is assembled in before it is renamed into place.
    private static let stagingPrefix = ".tmp-identity-"
    private static let caLifetimeDays = 3653
    private static let day: TimeInterval = 86_400
    /// X.509's upper bound for CN and O (RFC 5280 ub-common-name, ub-organization-name).
    private static let nameLimit = 64

    /// Creates the identity directory at `directory` with the device key, the device certificate
    /// and the device CA certificate. The files are written and fsynced in a staging directory
    /// beside it, which is then renamed to `directory`: after a crash the identity is either
    /// complete or absent, never a half that would read as `.missing`.
    static let unstatedCountry = "XX"

    static func enroll(_ configuration: IdentityConfiguration, into directory: String, now: Date) throws(IdentityFailure) {
        let files: [(name: String, text: String, mode: mode_t)]
        do {
            let organization = name(configuration.organization, otherwise: "lensd")
            let deviceName = name(configuration.deviceName, otherwise: "lensd device")
            // The CA's key goes out of scope at the end of this block; OpenSSL clears EC private
            // keys when it frees them.
            let caKey = try PrivateKey.generate(.p256)
            let ca = try CertificateIssuer.issue(
                subject: DistinguishedName(organization: organization, organizationalUnit: "Device CA", commonName: deviceName),
                subjectKey: caKey.publicKey, profile: .rootCA,
                notBefore: now, notAfter: now + Double(caLifetimeDays) * day,
                issuer: nil, selfSigningKey: caKey)
            let deviceKey = try PrivateKey.generate(.p256)
            // The program's leaf profile wants a subject country; "XX" (ISO 3166's user-assigned
            // code) names none, since lensd does not know its owner's.
            let device = try CertificateIssuer.issue(
                subject: DistinguishedName(country: Self.unstatedCountry, organization: organization, organizationalUnit: "Devices",
                                           commonName: deviceName),
                subjectKey: deviceKey.publicKey, profile: .c2paSigner,
                notBefore: now, notAfter: now + Double(configuration.clampedLifetimeDays) * day,
                issuer: (ca, caKey))
            files = [
                (EmbeddedIdentity.keyFileName, try deviceKey.pkcs8PEM(), 0o600),
                (EmbeddedIdentity.chainFileName, device.pem, 0o644),
                (EmbeddedIdentity.rootFileName, ca.pem, 0o644),
            ]
        } catch {
            throw IdentityFailure(.invalid, "cannot issue the device certificate: \(error)")
        }
        do {
            try install(files, at: directory, stateDirectory: configuration.stateDirectory.path)
        } catch {
            throw IdentityFailure(.missing, "cannot create the device identity in \(directory): \(error)")
        }
    }

    /// Removes staging directories a crash left behind; they may hold a device key nobody uses.
    /// Best effort: a leftover that cannot be removed does not stop lensd.
    static func removeInterruptedEnrollments(in stateDirectory: String) {
        guard let names = try? FileSystem.directoryEntries(stateDirectory) else { return }
        for name in names where name.hasPrefix(stagingPrefix) {
            removeStaging("\(stateDirectory)/\(name)")
        }
    }

    private static func install(_ files: [(name: String, text: String, mode: mode_t)], at directory: String, stateDirectory: String) throws {
        try FileSystem.makeDirectories(stateDirectory, mode: 0o700)
        let staging = "\(stateDirectory)/\(stagingPrefix)\(UInt64.random(in: .min ... .max))"
        try FileSystem.makeDirectory(staging, mode: 0o700)
        do {
            let stagingDirectory = try FileDescriptor.open(staging, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
            for file in files {
                try StagedFile(in: stagingDirectory, writing: [Array(file.text.utf8)], mode: file.mode).commit(as: file.name)
            }
            try FileSystem.rename(staging, to: directory)
        } catch {
            removeStaging(staging)
            throw error
        }
        try FileSystem.syncDirectory(stateDirectory)
    }

    private static func removeStaging(_ staging: String) {
        for name in (try? FileSystem.directoryEntries(staging)) ?? [] {
            try? FileSystem.unlink("\(staging)/\(name)")
        }
        try? FileSystem.removeDirectory(staging)
    }

    /// `value` cut to what X.509 allows (counted in code points, as OpenSSL counts), or
    /// `fallback` when empty.
    private static func name(_ value: String, otherwise fallback: String) -> String {
        let cut = String(String.UnicodeScalarView(value.unicodeScalars.prefix(nameLimit)))
        return cut.isEmpty ? fallback : cut
    }
}
