import Foundation

/// face_scenes.py's scenario frames, made once per build tree, size and version of the script
/// (it is deterministic: the same arguments give the same bytes) and copied where a test wants
/// them: a run of the script costs ~0.6 s of CPU, and the test processes ask for them ~17 times.
public enum FaceScenesOracle {
    /// Writes <scenario>.jpg for every scenario of face_scenes.py into `directory` (made if missing).
    public static func write(to directory: URL, width: Int = 640, height: Int = 480) throws {
        let made = try cached(width: width, height: height)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: made) {
            try FileManager.default.copyItem(atPath: "\(made)/\(name)", toPath: directory.appendingPathComponent(name).path)
        }
    }

    /// The directory the script wrote for this size; made by the first process to ask, the
    /// others use it (made under another name and renamed: never seen half-written).
    private static func cached(width: Int, height: Int) throws -> String {
        let script = try Data(contentsOf: TestTools.oracleDir.appendingPathComponent("face_scenes.py"))
        let target = try TestTools.perBuildTreeDirectory("scenes") + "/face-scenes-\(width)x\(height)-\(TestTools.fnv1a(script))"
        if FileManager.default.fileExists(atPath: target) { return target }
        let staged = "\(target).\(UUID().uuidString.prefix(8))"
        try TestTools.runOracle("face_scenes.py", [staged, "--width", String(width), "--height", String(height)])
        // Another process that made it meanwhile wins; its files are the same bytes.
        if rename(staged, target) != 0 { try? FileManager.default.removeItem(atPath: staged) }
        guard FileManager.default.fileExists(atPath: target) else { throw TestToolError("cannot make \(target)") }
        return target
    }
}
