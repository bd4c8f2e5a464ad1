import Foundation
import Glibc

/// The outbox's directory, `<state>/outbox`: one small JSON file per record, `<name>.json`.
/// Each write goes to a temporary file that is fsynced and renamed over the old one (StagedFile),
/// so after a crash or SIGKILL a record is either its old or its new version, never half of one.
struct OutboxJournal {
    let directory: String

    init(directory: String) throws {
        self.directory = directory
        do {
            try Syscalls.makeDirectories(directory, mode: 0o700)
            try Syscalls.changeMode(directory, 0o700)
            try ResultDirectoryScan.removeTemporaries(under: directory)
        } catch let failure as Syscalls.Failure {
            throw StorageError(failure, while: "opening the outbox \(directory)")
        }
    }

    /// Every record on disk; an unreadable one is reported through `onDamaged` and left out.
    func load(onDamaged: (String, Error) -> Void) -> [OutboxRecord] {
        let names = (try? Syscalls.directoryEntries(directory)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { file in
            do {
                let bytes = try Syscalls.open("\(directory)/\(file)", O_RDONLY | O_NOFOLLOW).readAll(limit: 64 << 10)
                return try JSONDecoder().decode(OutboxRecord.self, from: Data(bytes))
            } catch {
                onDamaged(file, error)
                return nil
            }
        }
    }

    func save(_ record: OutboxRecord) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let bytes = [UInt8](try encoder.encode(record))
        do {
            // The outbox directory itself, never a link planted in its place.
            let outbox = try Syscalls.open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
            try StagedFile(directory: outbox, parts: [bytes], mode: 0o600).commit(as: fileName(record.name))
        } catch let failure as Syscalls.Failure {
            throw StorageError(failure, while: "recording \(record.name) in the outbox")
        }
    }

    func remove(_ name: String) throws {
        do {
            try Syscalls.unlink("\(directory)/\(fileName(name))")
            try Syscalls.syncDirectory(directory)
        } catch let failure as Syscalls.Failure where failure.errno == ENOENT {
        } catch let failure as Syscalls.Failure {
            throw StorageError(failure, while: "removing \(name) from the outbox")
        }
    }

    private func fileName(_ name: String) -> String { "\(name).json" }
}
