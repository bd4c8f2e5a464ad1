import FoundationEssentials
import Glibc
import LensSystem

/// What `ResultStore.init` does with the results directory a previous run left behind.
enum ResultDirectoryScan {
    /// Removes every ".tmp-*" file at any depth: each one is a store that was interrupted before
    /// its rename, so nobody was ever told its name. Symbolic links are not followed.
    static func removeTemporaries(under directory: String) throws {
        for name in try FileSystem.directoryEntries(directory) {
            let path = "\(directory)/\(name)"
            let status = try FileSystem.status(path)
            if status.isDirectory {
                try removeTemporaries(under: path)
            } else if name.hasPrefix(StagedFile.temporaryPrefix) {
                try FileSystem.unlink(path)
            }
        }
    }

    /// Indexes "<uid>/<uuid>.<ext>" regular files, oldest first by modification time (then by
    /// name, since coarse file-system clocks give equal times to results stored in quick
    /// succession). Anything else is left alone and ignored.
    static func index(_ directory: String) throws -> ResultIndex {
        var index = ResultIndex()
        for uidName in try FileSystem.directoryEntries(directory) {
            let uidDirectory = "\(directory)/\(uidName)"
            guard let uid = UInt32(uidName), String(uid) == uidName, try FileSystem.status(uidDirectory).isDirectory else { continue }
            var found: [(entry: ResultIndex.Entry, modified: timespec)] = []
            for fileName in try FileSystem.directoryEntries(uidDirectory) {
                guard let parsed = ResultName.parseFileName(fileName) else { continue }
                let status = try FileSystem.status("\(uidDirectory)/\(fileName)")
                guard status.isRegularFile else { continue }
                let entry = ResultIndex.Entry(
                    name: parsed.name, fileExtension: parsed.fileExtension, size: status.size,
                    mime: ResultName.mime(forExtension: parsed.fileExtension), sha256: nil,
                    created: status.modifiedDate, note: ResultNote.read(parsed.name, in: uidDirectory))
                found.append((entry, status.modified))
            }
            found.sort { a, b in
                (a.modified.tv_sec, a.modified.tv_nsec, a.entry.name) < (b.modified.tv_sec, b.modified.tv_nsec, b.entry.name)
            }
            for item in found {
                index.append(item.entry, uid: uid)
            }
        }
        return index
    }
}

extension FileStatus {
    /// When a result was stored: its file's modification time, as a restart reads it back.
    var modifiedDate: Date { Date(timeIntervalSince1970: Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9) }
}
