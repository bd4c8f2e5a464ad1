import FoundationEssentials
import Glibc
import LensSystem

/// A one-line secret the administrator keeps in a file lensd reads (upload-auth-file,
/// est-credential-file): a regular file owned by root, so that nobody but root decides what
/// lensd presents, with the mode bits `forbidden` clear.
public enum RootOwnedSecretFile {
    public struct Unusable: Error, CustomStringConvertible {
        public var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// The file's one line, trimmed. `setting` names the key in errors; `rule` says in words
    /// what `forbidden` forbids ("writable only by root").
    public static func line(_ path: String, setting: String, forbidden: mode_t, rule: String) throws(Unusable) -> String {
        let info: FileStatus
        do {
            info = try FileSystem.status(path, followingLinks: false)
        } catch {
            throw Unusable(description: "\(setting) \(path): \(error.errno)")
        }
        guard info.isRegularFile else { throw Unusable(description: "\(setting) \(path) is not a regular file") }
        guard info.owner == 0, info.mode & forbidden == 0 else {
            throw Unusable(description: "\(setting) \(path) must be owned by root and \(rule) (mode \(String(info.mode & 0o777, radix: 8)))")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw Unusable(description: "\(setting) \(path) cannot be read as text")
        }
        let secret = text.trimmed()
        guard !secret.isEmpty, !secret.contains("\n"), !secret.contains("\r") else {
            throw Unusable(description: "\(setting) \(path) must hold one line")
        }
        return secret
    }
}
