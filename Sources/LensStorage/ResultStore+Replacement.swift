import Glibc
import LensCrypto
import LensSystem

extension ResultStore {
    /// Replaces a stored result by the same bytes with `range` swapped for `bytes` (an update
    /// manifest added to its store): the new file is streamed, hashed and fsynced under a
    /// ".tmp-" name beside it, then renamed over it and the directory fsynced, so after a crash
    /// the result is wholly the old file or wholly the new one. A FetchResult descriptor handed
    /// out before keeps reading the old file. Returns the result as it now is.
    public func replace(name: String, uid: UInt32, range: Range<Int>, with bytes: [UInt8]) throws -> StoredResult {
        let entry = try lookUp(name: name, uid: uid)
        guard range.lowerBound >= 0, range.upperBound <= entry.size else {
            throw StorageError(.invalidArgument, "the range to replace in \(name) lies outside its \(entry.size) bytes")
        }
        let uidDirectory = try userDirectory(uid)
        do {
            let copy = try StagedFile(in: uidDirectory, label: "replace", mode: 0o600)
            let digest = try withFile(entry, uid: uid) { original in
                let hasher = Hasher(.sha256)
                let keep = { (piece: UnsafeRawBufferPointer) throws in
                    hasher.update(piece)
                    try copy.file.writeAll(piece)
                }
                try Self.read(original, count: range.lowerBound, into: keep)
                try Self.read(original, count: range.count) { _ in }
                try bytes.withUnsafeBytes(keep)
                try Self.read(original, count: entry.size - range.upperBound, into: keep)
                return SHA256Hex.encode(hasher.finalize())
            }
            let size = entry.size - range.count + bytes.count
            return try state.withLock { state in
                guard state.index.entry(name: name, uid: uid) != nil else { throw StorageError(.notFound, "no result named \(name)") }
                try copy.publish(as: entry.fileName)
                try copy.syncDirectory()
                state.index.replace(name: name, uid: uid, size: size, sha256: digest)
                return storedResult(try lookUp(locked: name, uid: uid, in: state.index), uid: uid, sha256: digest)
            }
        } catch {
            if let failure = error as? SystemError { throw StorageError(failure, while: "replacing result \(name)") }
            throw error
        }
    }

    /// The next `count` bytes of `source`, piece by piece.
    private static func read(_ source: borrowing FileDescriptor, count: Int, into body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var left = count
        while left > 0 {
            let read = try chunk.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<min(left, $0.count)])) }
            guard read > 0 else { throw StorageError(.io, "the result ended \(left) bytes early while being replaced") }
            try chunk.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<read])) }
            left -= read
        }
    }
}
