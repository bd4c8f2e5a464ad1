import Glibc
import LensSystem

/// What a result's file does not say by itself — it was kept unsigned, or recovered after a
/// crash — kept beside it as `.note-<name>`, a small file that exists only for such results, so
/// a restart still lists them as they were. Result scans ignore it (not a "<uuid>.<ext>" name).
struct ResultNote: Equatable {
    var signed = true
    var recovered = false

    static let prefix = ".note-"

    static func fileName(_ name: String) -> String { prefix + name }

    var isNeeded: Bool { !signed || recovered }

    /// "unsigned recovered", "unsigned" or "recovered".
    var text: String {
        ((signed ? [] : ["unsigned"]) + (recovered ? ["recovered"] : [])).joined(separator: " ") + "\n"
    }

    init(signed: Bool = true, recovered: Bool = false) {
        self.signed = signed
        self.recovered = recovered
    }

    init(text: String) {
        let words = text.split(whereSeparator: \.isWhitespace)
        signed = !words.contains("unsigned")
        recovered = words.contains("recovered")
    }

    /// The note of `name` in `directory`; a missing or unreadable one means a plain signed result.
    static func read(_ name: String, in directory: String) -> ResultNote {
        guard let file = try? FileDescriptor.open("\(directory)/\(fileName(name))", O_RDONLY | O_NOFOLLOW),
              let bytes = try? file.readAll(limit: 64) else { return ResultNote() }
        return ResultNote(text: String(decoding: bytes, as: UTF8.self))
    }

    /// Written durably before the result is published (see `ResultStore.publishRecording`).
    func write(_ name: String, in directory: borrowing FileDescriptor) throws {
        guard isNeeded else { return }
        try StagedFile(in: directory, writing: [Array(text.utf8)], mode: 0o600).commit(as: Self.fileName(name))
    }

    /// Removes the note of a deleted result, if it has one.
    static func remove(_ name: String, in directory: borrowing FileDescriptor) {
        try? FileSystem.unlink(at: directory, fileName(name))
    }
}
