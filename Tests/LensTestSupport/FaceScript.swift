import Foundation

/// What a face test scripts a camera to see: face_scenes.py's scenario frames, each repeated as
/// the script says (face_sequence.py), every file with its own index drawn in a corner so that
/// any frame lensd names or signs tells which file it was.
public enum FaceScript {
    /// The instruction lensd's detector gives each scenario.
    public static let instructions = ["no_face": "face_not_present", "far": "face_too_far", "off_centre": "face_centering",
                                      "close": "face_too_close", "dark": "lighting", "centred": "candidate_selection"]

    /// Writes the files of `steps` ("far:60", "centred:150", …) into the directory `frames`, the
    /// scenario frames into `scenes`; returns the scenario of each file, by index.
    public static func write(_ steps: [String], to frames: URL, scenes: URL) throws -> [String] {
        try FaceScenesOracle.write(to: scenes)
        let listing = try TestTools.runOracle("face_sequence.py", ["write", scenes.path, frames.path] + steps)
        return try JSONDecoder().decode([String].self, from: listing)
    }

    /// The index drawn in the JPEG at `photo`.
    public static func index(drawnIn photo: URL) throws -> UInt64? {
        let drawn = String(decoding: try TestTools.runOracle("face_sequence.py", ["read", photo.path]), as: UTF8.self)
        return UInt64(drawn.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
