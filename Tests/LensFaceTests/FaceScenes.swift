import Foundation
import LensCore
import LensFace
import LensImaging
import LensTestSupport

/// The scenario frames of Tests/oracle/face_scenes.py, made once per test run at 640×480 (a
/// webcam frame) and at 320×240 (the downscale auto-capture runs on), and the detector over
/// Debian's cascade.
enum FaceScenes {
    struct Scene: Sendable {
        let name: String
        let file: URL
        let luma: LumaImage
    }

    enum Size: String, CaseIterable {
        case vga = "640x480", qvga = "320x240"
    }

    static let names = ["no_face", "far", "close", "off_centre", "dark", "overexposed", "blurred", "centred"]

    // Initialized once, thread-safely, by Swift's lazy static initialization; only read after.
    // The TemporaryDirectory (not Sendable) lives as long as the test process, then goes away.
    nonisolated(unsafe) private static let vga = Result { try make(.vga) }
    nonisolated(unsafe) private static let qvga = Result { try make(.qvga) }

    static func scene(_ name: String, _ size: Size = .qvga) throws -> Scene {
        guard let scene = try (size == .vga ? vga : qvga).get().scenes[name] else { throw TestToolError("no scene \(name)") }
        return scene
    }

    static func all(_ size: Size) throws -> [Scene] { try names.map { try scene($0, size) } }

    static let detector: Result<FaceDetector, Error> = Result { FaceDetector(cascade: try LBPCascade(contentsOf: LBPCascade.defaultPath)) }

    private static func make(_ size: Size) throws -> (directory: TemporaryDirectory, scenes: [String: Scene]) {
        let directory = try TemporaryDirectory.forProcess(prefix: "lensface-scenes")
        let sides = size.rawValue.split(separator: "x").compactMap { Int($0) }
        try FaceScenesOracle.write(to: directory.url, width: sides[0], height: sides[1])
        var scenes: [String: Scene] = [:]
        for name in names {
            let file = directory.file("\(name).jpg")
            let decoded = try JPEGCodec.decodeRGB(Array(try Data(contentsOf: file)))
            scenes[name] = Scene(name: name, file: file,
                                 luma: try LumaImage(rgb: decoded.rgb, width: decoded.width, height: decoded.height))
        }
        return (directory, scenes)
    }
}
