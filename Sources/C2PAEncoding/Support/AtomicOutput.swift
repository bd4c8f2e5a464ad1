import LensSystem
#if canImport(Glibc)
import Glibc
#endif

/// Where a signer writes a file: a StagedFile beside the destination, published over it only
/// once complete and fsynced, so a reader never sees a partial file. If anything fails (a full
/// disk at a write or at fsync), the temporary file goes and the destination is left as it was.
/// Failures are `C2PAError.io` naming the call and the destination.
package enum AtomicOutput {
    package static func write(to path: String, _ fill: (borrowing POSIXFile) throws -> Void) throws {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let staged: StagedFile
        let output: POSIXFile
        do {
            staged = try StagedFile(inDirectory: directory, label: name, mode: 0o644)
            output = POSIXFile(try staged.file.duplicate(), path: path)
        } catch {
            // Documented for the verifier: a file that cannot be opened is unsupported input.
            throw C2PAError.unsupported("\(error.call) \(path): \(error.errno)")
        }
        try fill(output)
        do {
            try staged.publish(as: name)
        } catch {
            throw C2PAError.io("\(error.call) \(path)", error.errno)
        }
        // So the new name survives a crash; best effort, the file itself is already safe.
        try? staged.syncDirectory()
    }
}
