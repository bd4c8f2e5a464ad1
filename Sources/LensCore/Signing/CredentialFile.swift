import Glibc
import LensCrypto

/// Reads the PEM files of a device identity, turning each way they can fail into the
/// enrollment state it means.
enum CredentialFile {
    /// Far beyond any key or chain; a larger file is not one.
    private static let sizeLimit = 1 << 20

    /// The text of `path`. A missing file is `.missing`; any other failure is `.invalid`. A
    /// secret (a private key) must not be accessible to other users, as ssh insists for its keys:
    /// group access stays allowed for a `root:lensd 0640` installation.
    static func read(_ path: String, _ what: String, isSecret: Bool, remedy: String) throws(IdentityFailure) -> String {
        do {
            let file = try Syscalls.open(path, O_RDONLY)
            let status = try file.status()
            guard status.isRegularFile else { throw IdentityFailure(.invalid, "\(what) \(path) is not a regular file; \(remedy)") }
            if isSecret && status.permissions & 0o007 != 0 {
                let mode = String(status.permissions, radix: 8)
                throw IdentityFailure(.invalid, "\(what) \(path) is accessible to other users (mode \(mode)); run chmod o-rwx \(path)")
            }
            let bytes = try file.readAll(limit: sizeLimit)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw IdentityFailure(.invalid, "\(what) \(path) is not PEM text; \(remedy)")
            }
            return text
        } catch let failure as Syscalls.Failure where failure.errno == ENOENT {
            throw IdentityFailure(.missing, "\(what) \(path) does not exist; \(remedy)")
        } catch let failure as Syscalls.Failure {
            throw IdentityFailure(.invalid, "cannot read \(what): \(failure); \(remedy)")
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
