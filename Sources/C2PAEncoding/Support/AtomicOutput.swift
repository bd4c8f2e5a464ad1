import LensSystem
#if canImport(Glibc)
import Glibc
#endif

/// Where a signer writes a file: a temporary file beside the destination, fsynced and renamed
/// over it only once complete, so a reader never sees a partial file. If anything fails (a full
/// disk at a write or at fsync), the temporary file is removed and the destination left as it was.
package enum AtomicOutput {
    package static func write(to path: String, _ fill: (borrowing POSIXFile) throws -> Void) throws {
        // Beside the destination (same file system, so rename is atomic), named after it: lensd's
        // ResultStore removes what a crash leaves of its own ".tmp-" files this way too.
        let temporary = "\(path).\(String(UInt64.random(in: .min ... .max), radix: 16)).tmp"
        let file = try POSIXFile(path: temporary, flags: O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW)
        do {
            try fill(file)
            try file.sync()
            try file.io("rename") { (_) throws(SystemError) in try FileSystem.rename(temporary, to: path) }
        } catch {
            try? FileSystem.unlink(temporary)
            throw error
        }
        // So the new name survives a crash; best effort, the file itself is already safe.
        let slash = path.lastIndex(of: "/")
        try? FileSystem.syncDirectory(slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? ".")
    }
}
