import FoundationEssentials
import LensSystem
import Glibc

/// upload-auth-file: one line, a bearer token or `user:password` (Basic). The file must be owned
/// by root and writable by nobody else: whoever can write it decides where captures are sent as whom.
public enum UploadCredential {
    public struct Unusable: Error, CustomStringConvertible {
        public var description: String
    }

    /// The Authorization header value the file stands for.
    public static func authorization(fromFile path: String) throws -> String {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw Unusable(description: "upload-auth-file \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw Unusable(description: "upload-auth-file \(path) is not a regular file") }
        guard info.st_uid == 0, info.st_mode & 0o022 == 0 else {
            throw Unusable(description: "upload-auth-file \(path) must be owned by root and writable only by root (chown root; chmod 0640)")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw Unusable(description: "upload-auth-file \(path) cannot be read as text")
        }
        let secret = text.trimmed()
        guard !secret.isEmpty, !secret.contains("\n"), !secret.contains("\r") else {
            throw Unusable(description: "upload-auth-file \(path) must hold one line: a bearer token or user:password")
        }
        if secret.contains(":") {
            return "Basic " + Data(secret.utf8).base64EncodedString()
        }
        return "Bearer " + secret
    }
}
