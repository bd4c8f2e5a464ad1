import C2PA
import FoundationEssentials
import Glibc
import LensSystem

/// Videos are written where they will live: a recording is journaled as
/// `<results>/<uid>/.recording-<uuid>.mp4` and renamed to `<uuid>.mp4` once it is finished and
/// signed. Unlike ".tmp-*" files these survive a restart, which finalizes and publishes them.
extension ResultStore {
    static let recordingPrefix = ".recording-"

    public struct InterruptedRecording: Sendable, Equatable {
        public var name: String
        public var uid: UInt32
        public var path: String
    }

    /// Where the recording `name` of `uid` is journaled (the user's directory is created).
    public func recordingPath(name: String, uid: UInt32) throws -> String {
        guard ResultName.isValid(name) else { throw StorageError(.invalidArgument, "invalid result name \"\(name)\"") }
        // The recorder opens this path itself; the directory was checked (not a link, lensd's own) first.
        _ = try userDirectory(uid)
        return "\(directory)/\(uid)/\(Self.recordingPrefix)\(name).\(AssetFormat.bmff.fileExtension)"
    }

    /// Renames a finished recording to its result name and indexes it (retention as for `store`),
    /// noting first when it is unsigned or recovered. Its SHA-256 is left for
    /// `result(name:uid:)` to compute when asked. A recording is never refused for its size: it
    /// stopped at the limits, and should it still exceed the byte cap, the owner's older results
    /// make room (retention keeps the newest).
    public func publishRecording(name: String, uid: UInt32, signed: Bool, recovered: Bool) throws -> StoredResult {
        let path = try recordingPath(name: name, uid: uid)
        do {
            let size = try FileSystem.status(path).size
            let note = ResultNote(signed: signed, recovered: recovered)
            let entry = ResultIndex.Entry(name: name, fileExtension: AssetFormat.bmff.fileExtension, size: size,
                                          mime: AssetFormat.bmff.mediaType, sha256: nil, created: Date(), note: note)
            let uidDirectory = try userDirectory(uid)
            let journaled = "\(Self.recordingPrefix)\(name).\(AssetFormat.bmff.fileExtension)"
            return try publish(entry, uid: uid, in: uidDirectory) {
                try note.write(name, in: uidDirectory)
                try FileSystem.rename(at: uidDirectory, journaled, to: entry.fileName)
                try uidDirectory.sync()
            }
        } catch let failure as SystemError {
            throw StorageError(failure, while: "publishing video \(name)")
        }
    }

    /// Deletes a recording that produced nothing worth keeping.
    public func discardRecording(name: String, uid: UInt32) {
        if let path = try? recordingPath(name: name, uid: uid) { try? FileSystem.unlink(path) }
    }

    /// Recordings a crash interrupted, for start-up recovery.
    public func interruptedRecordings() -> [InterruptedRecording] {
        var found: [InterruptedRecording] = []
        for uidName in (try? FileSystem.directoryEntries(directory)) ?? [] {
            // lstat: a symbolic link planted as a user's directory is not recovered through.
            guard let uid = UInt32(uidName), String(uid) == uidName,
                  (try? FileSystem.status("\(directory)/\(uidName)"))?.isDirectory == true else { continue }
            for fileName in (try? FileSystem.directoryEntries("\(directory)/\(uidName)")) ?? []
            where fileName.hasPrefix(Self.recordingPrefix) {
                guard let parsed = ResultName.parseFileName(String(fileName.dropFirst(Self.recordingPrefix.count))),
                      parsed.fileExtension == AssetFormat.bmff.fileExtension else { continue }
                found.append(InterruptedRecording(name: parsed.name, uid: uid, path: "\(directory)/\(uidName)/\(fileName)"))
            }
        }
        return found
    }
}
