import Foundation
import LensCore

/// What a recording's manifest will say — the camera, the start time, the location fix — written
/// beside its journal when it starts, so that a recording a crash interrupted can still be signed
/// with the facts of its own start rather than with anything known later.
struct RecordingFacts: Codable {
    var startTime: Date
    var make: String
    var model: String
    var isSynthetic: Bool
    var digitalZoomRatio: Double?
    var fix: Fix?

    struct Fix: Codable {
        var latitude: Double
        var longitude: Double
        var altitude: Double?
        var horizontalAccuracy: Double
        var mode: String
        var fixTime: Date
        var isDeclared: Bool
    }

    init(facts: VideoSigning.Facts, fix: LocationFix?) {
        startTime = facts.startTime
        make = facts.make
        model = facts.model
        isSynthetic = facts.isSynthetic
        digitalZoomRatio = facts.digitalZoomRatio
        self.fix = fix.map {
            Fix(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude, horizontalAccuracy: $0.horizontalAccuracy,
                mode: $0.mode.rawValue, fixTime: $0.fixTime, isDeclared: $0.isDeclared)
        }
    }

    var facts: VideoSigning.Facts {
        VideoSigning.Facts(startTime: startTime, make: make, model: model, isSynthetic: isSynthetic,
                           digitalZoomRatio: digitalZoomRatio)
    }

    var locationFix: LocationFix? {
        fix.flatMap { fix in
            FixMode(rawValue: fix.mode).map {
                LocationFix(latitude: fix.latitude, longitude: fix.longitude, altitude: fix.altitude,
                            horizontalAccuracy: fix.horizontalAccuracy, mode: $0, fixTime: fix.fixTime,
                            receivedAt: fix.fixTime, isDeclared: fix.isDeclared)
            }
        }
    }

    /// Durable before the first frame is recorded (the file is small; 0600 like the journal).
    func write(besides journal: String) throws {
        let data = try JSONEncoder().encode(self)
        let path = Self.path(besides: journal)
        guard FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.synchronize()
        try handle.close()
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
