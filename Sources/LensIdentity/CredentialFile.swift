import Glibc
import LensCrypto
import LensStorage
import LensSystem

/// Reads the PEM files of a device identity, turning each way they can fail into the
/// enrollment state it means.
enum CredentialFile {
    /// Far beyond any key or chain; a larger file is not one.
    private static let sizeLimit = 1 << 20

    /// The systemd credential holding the software device key.
    static let deviceKeyCredential = "device-key"

    /// The software device key's text and where it came from: systemd's `device-key` credential
    /// when lensd was given one (LoadCredentialEncrypted= decrypts it into $CREDENTIALS_DIRECTORY,
    /// readable by lensd alone, so the key need not lie on disk in the clear), otherwise the file
    /// at `path`, as `readFile` reads it.
    static func deviceKey(_ configuration: IdentityConfiguration, remedy: String, orFile path: String,
                          _ readFile: () throws(IdentityFailure) -> String) throws(IdentityFailure) -> (text: String, path: String) {
        if let directory = configuration.credentialsDirectory {
            let credential = "\(directory)/\(deviceKeyCredential)"
            do {
                return (try read(credential, "the device-key credential", isSecret: true, remedy: remedy), credential)
            } catch let failure where failure.state == .missing {}
        }
        return (try readFile(), path)
    }

    /// The text of `path`, a file the configuration names (the administrator's links are followed).
    static func read(_ path: String, _ what: String, isSecret: Bool, remedy: String) throws(IdentityFailure) -> String {
        try read(what, path: path, isSecret: isSecret, remedy: remedy) { try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK) }
    }

    /// The text of `name` in lensd's own `directory` (shown as `path`): never through a symbolic
    /// link, and only a regular file owned by lensd's user or root (see StateDirectoryEntry).
    static func read(_ name: String, in directory: borrowing FileDescriptor, path: String, _ what: String, isSecret: Bool,
                     remedy: String) throws(IdentityFailure) -> String {
        try read(what, path: path, isSecret: isSecret, remedy: remedy) {
            try StateDirectoryEntry.open(name, in: directory, as: .regularFile, label: path)
        }
    }

    /// A missing file is `.missing`; any other failure is `.invalid`. A secret (a private key) is
    /// checked each time it is read: owned by lensd's user or root, and not accessible to other
    /// users, as ssh insists for its keys (group access stays allowed for a `root:lensd 0640`
    /// installation).
    private static func read(_ what: String, path: String, isSecret: Bool, remedy: String,
                             opening open: () throws -> FileDescriptor) throws(IdentityFailure) -> String {
        do {
            let file = try open()
            let status = try file.status()
            guard status.isRegularFile else { throw IdentityFailure(.invalid, "\(what) \(path) is not a regular file; \(remedy)") }
            if isSecret && status.owner != geteuid() && status.owner != 0 {
                throw IdentityFailure(.invalid, "\(what) \(path) is owned by uid \(status.owner), not by lensd's user or root; "
                                      + "run chown \(geteuid()) \(path)")
            }
            if isSecret && status.permissions & 0o007 != 0 {
                let mode = String(status.permissions, radix: 8)
                throw IdentityFailure(.invalid, "\(what) \(path) is accessible to other users (mode \(mode)); run chmod o-rwx \(path)")
            }
            let bytes = try file.readAll(limit: sizeLimit)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw IdentityFailure(.invalid, "\(what) \(path) is not PEM text; \(remedy)")
            }
            return text
        } catch let failure as SystemError where failure.errno == .notFound {
            throw IdentityFailure(.missing, "\(what) \(path) does not exist; \(remedy)")
        } catch let failure as SystemError {
            throw IdentityFailure(.invalid, "cannot read \(what): \(failure); \(remedy)")
        } catch let refusal as StateDirectoryEntry.Refusal {
            throw IdentityFailure(.invalid, "\(what): \(refusal); \(remedy)")
        } catch let failure as IdentityFailure {
            throw failure
        } catch {
            throw IdentityFailure(.invalid, "cannot read \(what) \(path): \(error); \(remedy)")
        }
    }

    static func parseKey(_ pem: String, _ what: String, path: String, remedy: String) throws(IdentityFailure) -> PrivateKey {
        do {
            return try PrivateKey(pem: pem)
        } catch {
            throw IdentityFailure(.invalid, "\(what) \(path) does not hold a usable private key (\(error)); \(remedy)")
        }
    }

    /// Every certificate in `pem`, in order; at least one.
    static func parseCertificates(_ pem: String, _ what: String, path: String, remedy: String) throws(IdentityFailure) -> [Certificate] {
        do {
            return try Certificate.parsePEM(pem)
        } catch {
            throw IdentityFailure(.invalid, "\(what) \(path) does not hold usable certificates (\(error)); \(remedy)")
        }
    }
}
