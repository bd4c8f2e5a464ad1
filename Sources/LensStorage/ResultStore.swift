import C2PA
import FoundationEssentials
import Glibc
import LensSystem
import Synchronization

/// Finished captures on disk, one directory per uid: `<results>/<uid>/<uuid>.<ext>`, all 0700
/// directories and 0600 files owned by lensd. Results belong to the uid that captured them; a
/// lookup by anyone else fails exactly like a lookup of a name that does not exist. Below
/// `<results>` every name is opened relative to its directory's descriptor, never through a
/// symbolic link, and only as the type and owner lensd gave it (see StateDirectoryEntry).
///
/// Thread-safe: the signing thread stores while the bus thread reads. The lock guards the index
/// and the rename that publishes a file; writing, hashing and copying happen outside it, so a
/// large video being stored never stalls a FetchResult.
public final class ResultStore: Sendable {
    let directory: String
    /// `directory`, opened once: the names below it are resolved from here.
    private let resultsDirectory: FileDescriptor
    private let maxCountPerUID: Int
    let maxBytesPerUID: Int64
    private let minimumFreeBytes: Int64
    let state: Mutex<State>

    struct State {
        var index: ResultIndex
        var evictionHandler: (@Sendable (StoredResult, String) -> Void)?
    }

    /// Called, on the thread that stored, for every result retention deletes at the caps, with
    /// why (e.g. "over max-results-per-user (100 results)"): never silently. Set it once, early.
    public func onEviction(_ handler: @escaping @Sendable (_ evicted: StoredResult, _ reason: String) -> Void) {
        state.withLock { $0.evictionHandler = handler }
    }

    /// `directory` is `<state>/results`; it is created 0700 when missing. Leftovers of
    /// interrupted stores (".tmp-*" files at any depth) are removed, and the results already
    /// there are indexed, so a restart keeps serving them.
    public init(directory: URL, maxCountPerUID: Int = 100, maxBytesPerUID: Int64 = 1 << 30, minimumFreeBytes: Int64 = 64 << 20) throws {
        self.directory = directory.path
        self.maxCountPerUID = max(maxCountPerUID, 1)
        self.maxBytesPerUID = maxBytesPerUID
        self.minimumFreeBytes = minimumFreeBytes
        do {
            try FileSystem.makeDirectories(self.directory, mode: 0o700)
            let parent = try FileDescriptor.open(directory.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY)
            resultsDirectory = try StateDirectoryEntry.open(directory.lastPathComponent, in: parent, as: .directory,
                                                            label: self.directory)
            // Results of one user must never be readable by another, whatever created the directory.
            try resultsDirectory.changeMode(0o700)
            try ResultDirectoryScan.removeTemporaries(under: self.directory)
            state = Mutex(State(index: try ResultDirectoryScan.index(self.directory)))
        } catch let failure as SystemError {
            throw StorageError(failure, while: "opening the result store \(self.directory)")
        } catch let refusal as StateDirectoryEntry.Refusal {
            throw StorageError(.io, refusal.description)
        }
    }

    /// Stores `parts` concatenated as `<name>.<fileExtension>` for `uid`, atomically (see
    /// `StagedFile`), then deletes the oldest results of `uid` beyond the count and byte limits.
    /// Retention is best effort: a file that cannot be deleted now is tried again on the next store.
    public func store(parts: [[UInt8]], name: String, uid: UInt32, mime: String, fileExtension: String) throws -> StoredResult {
        guard ResultName.isValid(name) else { throw StorageError(.invalidArgument, "invalid result name \"\(name)\"") }
        guard ResultName.isValidExtension(fileExtension) else {
            throw StorageError(.invalidArgument, "invalid file extension \"\(fileExtension)\"")
        }
        let size = parts.reduce(0) { $0 + $1.count }
        guard Int64(size) <= maxBytesPerUID else {
            throw StorageError(.full, "a result of \(size) bytes exceeds the limit of \(maxBytesPerUID) bytes per user")
        }
        let sha256 = SHA256Hex.digest(parts)
        let entry = ResultIndex.Entry(name: name, fileExtension: fileExtension, size: size, mime: mime, sha256: sha256,
                                      created: Date(), note: ResultNote())
        let uidDirectory = try userDirectory(uid)
        do {
            let staged = try StagedFile(in: uidDirectory, writing: parts, mode: 0o600)
            return try publish(entry, uid: uid, in: uidDirectory) { try staged.commit(as: entry.fileName) }
        } catch let failure as SystemError {
            throw StorageError(failure, while: "storing result \(name)")
        }
    }

    /// Under the lock: `commit` makes the file visible under `entry.fileName` in `uidDirectory`,
    /// then the entry is indexed and the oldest results of `uid` beyond the limits are deleted.
    func publish(_ entry: ResultIndex.Entry, uid: UInt32, in uidDirectory: borrowing FileDescriptor,
                 commit: () throws -> Void) throws -> StoredResult {
        let (stored, evicted, handler) = try state.withLock { state in
            guard state.index.entry(name: entry.name, uid: uid) == nil else {
                throw StorageError(.invalidArgument, "a result named \(entry.name) already exists")
            }
            try commit()
            var entry = entry
            // The file's own time, which is what a restart reads back.
            if let status = try? FileSystem.status("\(directory)/\(uid)/\(entry.fileName)") { entry.created = status.modifiedDate }
            state.index.append(entry, uid: uid)
            var evicted: [(StoredResult, String)] = []
            for (old, cap) in state.index.evictions(uid: uid, maxCount: maxCountPerUID, maxBytes: maxBytesPerUID,
                                                    keeping: entry.name) {
                // Deletions are not fsynced: a deletion lost in a crash only brings back an
                // old result, which the next store evicts again.
                do { try remove(old, uid: uid, in: uidDirectory, from: &state.index) } catch { break }
                evicted.append((storedResult(old, uid: uid, sha256: old.sha256), cap.description))
            }
            return (storedResult(entry, uid: uid, sha256: entry.sha256), evicted, state.evictionHandler)
        }
        // Outside the lock: the handler may call back into the store.
        for (result, reason) in evicted { handler?(result, reason) }
        return stored
    }

    /// Under the lock: unlinks a result (and its note) and forgets it; throws when the file is
    /// still there (a retention pass then stops, to try again on the next store).
    private func remove(_ entry: ResultIndex.Entry, uid: UInt32, in uidDirectory: borrowing FileDescriptor,
                        from index: inout ResultIndex) throws {
        do {
            try FileSystem.unlink(at: uidDirectory, entry.fileName)
        } catch where error.errno == .notFound {
            // Gone already: forgotten below all the same.
        }
        ResultNote.remove(entry.name, in: uidDirectory)
        index.remove(name: entry.name, uid: uid)
    }

    /// Deletes the caller's own result (DeleteResult); another uid's result is `.notFound`.
    public func delete(name: String, uid: UInt32) throws {
        let entry = try lookUp(name: name, uid: uid)
        let uidDirectory = try userDirectory(uid)
        try state.withLock { state in
            guard state.index.entry(name: name, uid: uid) != nil else { throw StorageError(.notFound, "no result named \(name)") }
            do {
                try remove(entry, uid: uid, in: uidDirectory, from: &state.index)
            } catch let failure as SystemError {
                throw StorageError(failure, while: "deleting result \(name)")
            }
        }
    }

    /// The caller's own result; another uid's result is `.notFound`, like a missing one.
    public func result(name: String, uid: UInt32) throws -> StoredResult {
        let entry = try lookUp(name: name, uid: uid)
        if let sha256 = entry.sha256 {
            return storedResult(entry, uid: uid, sha256: sha256)
        }
        let sha256 = try withFile(entry, uid: uid) { try SHA256Hex.digest($0) }
        state.withLock { $0.index.setDigest(sha256, name: name, uid: uid) }
        return storedResult(entry, uid: uid, sha256: sha256)
    }

    /// The result's bytes (ReadResult); meant for photos, which fit in memory.
    public func read(name: String, uid: UInt32) throws -> [UInt8] {
        let entry = try lookUp(name: name, uid: uid)
        return try withFile(entry, uid: uid) { try $0.readAll(limit: entry.size) }
    }

    /// A sealed memfd holding the result's exact bytes, at offset 0 (FetchResult).
    public func sealedMemfd(name: String, uid: UInt32) throws -> FileDescriptor {
        let entry = try lookUp(name: name, uid: uid)
        return try withFile(entry, uid: uid) { try SealedMemfd.make(name: "lensd-\(name)", copying: $0, size: entry.size) }
    }

    /// What FetchResult hands out, the caller owns it: a sealed memfd copy for photos, and for
    /// videos a read-only descriptor of the stored file itself — a copy would cost the whole
    /// video in memory. lensd never changes a published result, and a file that retention
    /// deletes stays readable through the descriptor.
    public func fetchDescriptor(name: String, uid: UInt32) throws -> FileDescriptor {
        let entry = try lookUp(name: name, uid: uid)
        guard AssetFormat(mediaType: entry.mime)?.isVideo == true else { return try sealedMemfd(name: name, uid: uid) }
        return try withFile(entry, uid: uid) { try $0.duplicate() }
    }

    /// True when the file system holding the results has less than `minimumFreeBytes` free, or
    /// cannot say: the daemon then disables capture with reason "storage".
    public var isLowOnSpace: Bool {
        guard let available = try? FileSystem.availableBytes(directory) else { return true }
        return available < minimumFreeBytes
    }

    /// The share of the free space `uid` may take, and how much of it their results take; nil
    /// when the file system cannot say (isLowOnSpace then disables capture for all).
    public func freeSpaceShare(of uid: UInt32) -> FreeSpaceShare? {
        guard let available = try? FileSystem.availableBytes(directory) else { return nil }
        let used = state.withLock { $0.index.entries(uid: uid).reduce(Int64(0)) { $0 + Int64($1.size) } }
        return FreeSpaceShare(used: used, freeAboveMinimum: available - minimumFreeBytes)
    }

    /// The results of `uid`, newest first (ListResults). Results whose file has vanished are
    /// left out. Digests not yet known stay nil: listing never hashes a video.
    public func results(uid: UInt32) -> [StoredResult] {
        let entries = state.withLock { $0.index.entries(uid: uid) }
        return entries.reversed().compactMap { entry in
            try? withFile(entry, uid: uid) { _ in storedResult(entry, uid: uid, sha256: entry.sha256) }
        }
    }

    /// Deletes a result of `uid` (upload-keep false, once the server confirmed it); a result
    /// already gone is no error.
    public func remove(name: String, uid: UInt32) throws {
        let entry = try lookUp(name: name, uid: uid)
        try state.withLock { state in
            do {
                try FileSystem.unlink("\(directory)/\(uid)/\(entry.fileName)")
            } catch let failure as SystemError where failure.errno == .notFound {
            } catch let failure as SystemError {
                throw StorageError(failure, while: "removing result \(name)")
            }
            state.index.remove(name: name, uid: uid)
        }
    }
    /// The per-uid caps retention keeps results within.
    public var limits: (count: Int, bytes: Int64) { (maxCountPerUID, maxBytesPerUID) }

    // MARK: - Helpers

    /// As `lookUp`, for a caller that holds the lock.
    func lookUp(locked name: String, uid: UInt32, in index: ResultIndex) throws -> ResultIndex.Entry {
        guard let entry = index.entry(name: name, uid: uid) else { throw StorageError(.notFound, "no result named \(name)") }
        return entry
    }

    func lookUp(name: String, uid: UInt32) throws -> ResultIndex.Entry {
        guard ResultName.isValid(name) else { throw StorageError(.invalidArgument, "invalid result name \"\(name)\"") }
        guard let entry = state.withLock({ $0.index.entry(name: name, uid: uid) }) else {
            throw StorageError(.notFound, "no result named \(name)")
        }
        return entry
    }

    /// Opens the result's file outside the lock. Retention may delete it in between, which is
    /// reported as `.notFound`, as it would be a moment later; an open file stays readable even
    /// if it is deleted afterwards.
    func withFile<Result: ~Copyable>(_ entry: ResultIndex.Entry, uid: UInt32, _ body: (borrowing FileDescriptor) throws -> Result) throws -> Result {
        do {
            let uidDirectory = try StateDirectoryEntry.open(String(uid), in: resultsDirectory, as: .directory,
                                                            label: "\(directory)/\(uid)")
            let file = try StateDirectoryEntry.open(entry.fileName, in: uidDirectory, as: .regularFile,
                                                    label: "\(directory)/\(uid)/\(entry.fileName)")
            return try body(file)
        } catch let failure as SystemError where failure.errno == .notFound {
            state.withLock { $0.index.remove(name: entry.name, uid: uid) }
            throw StorageError(.notFound, "no result named \(entry.name)")
        } catch let failure as SystemError {
            throw StorageError(failure, while: "reading result \(entry.name)")
        } catch let refusal as StateDirectoryEntry.Refusal {
            throw StorageError(.io, refusal.description)
        }
    }

    /// `<results>/<uid>`, created 0700 on first use. The new entry is fsynced into the results
    /// directory, or a crash could lose the directory together with the results fsynced into it.
    func userDirectory(_ uid: UInt32) throws -> FileDescriptor {
        let name = String(uid)
        do {
            try makeDirectory(name)
            return try StateDirectoryEntry.open(name, in: resultsDirectory, as: .directory, label: "\(directory)/\(name)")
        } catch let failure as SystemError {
            throw StorageError(failure, while: "creating the result directory for uid \(uid)")
        } catch let refusal as StateDirectoryEntry.Refusal {
            throw StorageError(.io, refusal.description)
        }
    }

    /// mkdirat and fsync of the results directory. One already there was created by an earlier
    /// store — or planted: it is checked as it is opened. (Not a nested do in `userDirectory`:
    /// that crashes Swift 6.3's MandatoryAllocBoxToStack.)
    private func makeDirectory(_ name: String) throws(SystemError) {
        do {
            try FileSystem.makeDirectory(at: resultsDirectory, name, mode: 0o700)
        } catch where error.errno == .exists {
            return
        }
        try resultsDirectory.sync()
    }

    func storedResult(_ entry: ResultIndex.Entry, uid: UInt32, sha256: String?) -> StoredResult {
        StoredResult(
            name: entry.name, uid: uid, size: entry.size, sha256: sha256, mime: entry.mime, created: entry.created,
            signed: entry.note.signed, recovered: entry.note.recovered, path: "\(directory)/\(uid)/\(entry.fileName)")
    }
}
