import FoundationEssentials
import Glibc
import LensSystem
import LensCore

/// What a recording's manifest will say — the camera, the start time, the location fix — written
/// beside its journal when it starts, so that a recording a crash interrupted can still be signed
/// with the facts of its own start rather than with anything known later.
struct RecordingFacts: Codable {
    var facts: VideoSigning.Facts
    var fix: LocationFix?

    /// Durable before the first frame is recorded (the file is small; 0600 like the journal).
    func write(besides journal: String) throws {
        let data = try JSONEncoder().encode(self)
        let path = Self.path(besides: journal)
        guard FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: ["NSFilePath": path])
        }
        let file = try FileDescriptor.open(path, O_WRONLY)
        try file.sync()
        try file.close()
    }

    /// nil when missing or unreadable: the recording is then kept unsigned.
    static func read(besides journal: String) -> RecordingFacts? {
        guard let data = FileManager.default.contents(atPath: path(besides: journal)), data.count < 64 << 10 else { return nil }
        return try? JSONDecoder().decode(RecordingFacts.self, from: data)
    }

    static func remove(besides journal: String) {
        try? FileManager.default.removeItem(atPath: path(besides: journal))
    }

    private static func path(besides journal: String) -> String { journal + ".facts" }
}
