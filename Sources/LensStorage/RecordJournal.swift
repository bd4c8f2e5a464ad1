import FoundationEssentials
import Glibc
import LensSystem

/// A record kept in a RecordJournal, under its name.
package protocol JournalRecord: Codable {
    var name: String { get }
}

/// A directory of small JSON records, `<name>.json`, one per item of a persistent queue (the
/// outbox, the re-stamp queue). Each write goes to a temporary file that is fsynced and renamed
/// over the old one (StagedFile), so after a crash or SIGKILL a record is either its old or its
/// new version, never half of one.
package struct RecordJournal<Record: JournalRecord> {
    let directory: String
    /// What the queue is called in errors, e.g. "the outbox".
    let purpose: String

    package init(directory: String, purpose: String) throws {
        self.directory = directory
        self.purpose = purpose
        do {
            try FileSystem.makeDirectories(directory, mode: 0o700)
            try FileSystem.changeMode(directory, 0o700)
            try ResultDirectoryScan.removeTemporaries(under: directory)
        } catch let failure as SystemError {
            throw StorageError(failure, while: "opening \(purpose) \(directory)")
        }
    }

    /// Every record on disk; an unreadable one is reported through `onDamaged` and left out.
    package func load(onDamaged: (String, Error) -> Void) -> [Record] {
        let names = (try? FileSystem.directoryEntries(directory)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { file in
            do {
                let bytes = try FileDescriptor.open("\(directory)/\(file)", O_RDONLY | O_NOFOLLOW).readAll(limit: 64 << 10)
                return try JSONDecoder().decode(Record.self, from: Data(bytes))
            } catch {
                onDamaged(file, error)
                return nil
            }
        }
    }

    package func save(_ record: Record) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let bytes = [UInt8](try encoder.encode(record))
        do {
            // The queue's directory itself, never a link planted in its place.
            let queue = try FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
            try StagedFile(in: queue, writing: [bytes], mode: 0o600).commit(as: fileName(record.name))
        } catch {
            throw StorageError(error, while: "recording \(record.name) in \(purpose)")
        }
    }

    package func remove(_ name: String) throws {
        do {
            try FileSystem.unlink("\(directory)/\(fileName(name))")
            try FileSystem.syncDirectory(directory)
        } catch {
            // Gone already is what removing asked for.
            guard error.errno == .notFound else { throw StorageError(error, while: "removing \(name) from \(purpose)") }
        }
    }

    private func fileName(_ name: String) -> String { "\(name).json" }
}
