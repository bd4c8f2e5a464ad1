import FoundationEssentials
import Glibc
import LensStorage
import LensSystem

/// lensd's own device identity in `<state>/identity`: device.key (PKCS#8, 0600), device.pem (the
/// device certificate) and root.pem (the device CA that issued it, the trust anchor). Made once,
/// on the first start; after that it is only ever read. A damaged or expired identity is
/// reported, never silently replaced: photos signed so far name this certificate, and a new
/// identity needs a new trust anchor at every verifier.
enum EmbeddedIdentity {
    static let directoryName = "identity"
    static let keyFileName = "device.key"
    static let chainFileName = "device.pem"
    static let rootFileName = "root.pem"

    static func load(_ configuration: IdentityConfiguration, now: Date) throws(IdentityFailure) -> IdentityMaterial {
        let stateDirectory = configuration.stateDirectory.path
        let directory = "\(stateDirectory)/\(directoryName)"
        let remedy = "remove \(directory) to enroll a new device identity"

        DeviceEnrollment.removeInterruptedEnrollments(in: stateDirectory)
        let identity = try openDirectory(configuration, label: directory, remedy: remedy, now: now)

        let chainPath = "\(directory)/\(chainFileName)"
        let rootPath = "\(directory)/\(rootFileName)"
        // All three are read before any is parsed, so an incomplete identity reads as `.missing`.
        let (keyText, keyPath) = try CredentialFile.deviceKey(configuration, remedy: remedy, orFile: "\(directory)/\(keyFileName)") {
            () throws(IdentityFailure) in
            try CredentialFile.read(keyFileName, in: identity, path: "\(directory)/\(keyFileName)", "the device key", isSecret: true,
                                    remedy: remedy)
        }
        let chainText = try CredentialFile.read(chainFileName, in: identity, path: chainPath, "the device certificate",
                                                isSecret: false, remedy: remedy)
        let rootText = try CredentialFile.read(rootFileName, in: identity, path: rootPath, "the device CA certificate",
                                               isSecret: false, remedy: remedy)
        let key = try CredentialFile.parseKey(keyText, "the device key", path: keyPath, remedy: remedy)
        let chain = try CredentialFile.parseCertificates(chainText, "the device certificate", path: chainPath, remedy: remedy)
        let root = try CredentialFile.parseCertificates(rootText, "the device CA certificate", path: rootPath, remedy: remedy)
        return IdentityMaterial(
            key: key, chain: chain, trustAnchor: root[0], keyPath: keyPath, chainPath: chainPath, trustAnchorPath: rootPath,
            remedy: remedy)
    }

    /// `<state>/identity`, opened relative to the state directory and refused when it is a
    /// symbolic link or not lensd's own directory; made first when it does not exist at all
    /// (the first start).
    private static func openDirectory(_ configuration: IdentityConfiguration, label: String, remedy: String,
                                      now: Date) throws(IdentityFailure) -> FileDescriptor {
        func open() throws -> FileDescriptor {
            let state = try FileDescriptor.open(configuration.stateDirectory.path, O_RDONLY | O_DIRECTORY)
            return try StateDirectoryEntry.open(directoryName, in: state, as: .directory, label: label)
        }
        do {
            do {
                return try open()
            } catch let failure as SystemError where failure.errno == .notFound {
                try DeviceEnrollment.enroll(configuration, into: label, now: now)
                return try open()
            }
        } catch let refusal as StateDirectoryEntry.Refusal {
            throw IdentityFailure(.invalid, "\(refusal); \(remedy)")
        } catch let failure as SystemError {
            throw IdentityFailure(.invalid, "cannot inspect the device identity: \(failure); \(remedy)")
        } catch let failure as IdentityFailure {
            throw failure
        } catch {
            throw IdentityFailure(.invalid, "cannot inspect the device identity \(label): \(error); \(remedy)")
        }
    }
}
