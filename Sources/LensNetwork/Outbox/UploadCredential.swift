import FoundationEssentials
import Glibc
import LensStorage
import LensSystem

/// upload-auth-file: one line, a bearer token or `user:password` (Basic). The file must be owned
/// by root and writable by nobody else: whoever can write it decides where captures are sent as whom.
public enum UploadCredential {
    /// The Authorization header value the file stands for.
    public static func authorization(fromFile path: String) throws -> String {
        let secret = try RootOwnedSecretFile.line(path, setting: "upload-auth-file", forbidden: 0o022,
                                                  rule: "writable only by root (chown root; chmod 0640)")
        if secret.contains(":") {
            return "Basic " + Data(secret.utf8).base64EncodedString()
        }
        return "Bearer " + secret
    }
}
