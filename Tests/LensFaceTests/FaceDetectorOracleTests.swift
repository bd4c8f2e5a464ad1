import Foundation
import LensFace
import LensTestSupport
import XCTest

/// LensFace against OpenCV's CascadeClassifier (Tests/oracle/face_oracle.py, same cascade and
/// parameters) on every scenario frame: the same faces, rectangles with IoU ≥ 0.9.
final class FaceDetectorOracleTests: XCTestCase {
    func testRectanglesMatchOpenCVOnEveryScene() throws {
        // Auto-capture's search size (half of too far) on webcam frames; no lower bound (OpenCV's
        // default) on the downscale, so the smallest pyramid levels are compared too.
        let searchSize = FaceAutoCaptureConfiguration().searchMinSize(width: 640)
        for (size, minSize) in [(FaceScenes.Size.vga, searchSize), (.qvga, 0)] {
            let scenes = try FaceScenes.all(size)
            let oracle = try openCV(scenes.map(\.file), minSize: minSize)
            var facesCompared = 0
            for scene in scenes {
                let ours = try FaceScenes.detector.get().detect(image: scene.luma, options: .init(minSize: minSize))
                let theirs = try XCTUnwrap(oracle[scene.file.path], scene.name)
                XCTAssertEqual(ours.isEmpty, theirs.isEmpty, "\(scene.name) \(size) minSize \(minSize): face / no face verdicts differ")
                XCTAssertEqual(ours.count, theirs.count, "\(scene.name) \(size) minSize \(minSize): \(ours.map(\.rectangle)) vs \(theirs)")
                for expected in theirs {
                    let best = ours.map { $0.rectangle.intersectionOverUnion(expected) }.max() ?? 0
                    XCTAssertGreaterThanOrEqual(best, 0.9, "\(scene.name) \(size) minSize \(minSize): OpenCV's \(expected) vs \(ours.map(\.rectangle))")
                    facesCompared += 1
                }
            }
            // Every scene but no_face places a face that both must find: the comparison is not vacuous.
            XCTAssertGreaterThanOrEqual(facesCompared, scenes.count - 1, "minSize \(minSize)")
        }
    }

    func testNoFaceSceneHasNoFaceAndCentredHasOne() throws {
        let detector = try FaceScenes.detector.get()
        for size in FaceScenes.Size.allCases {
            XCTAssertEqual(detector.detect(image: try FaceScenes.scene("no_face", size).luma), [], "\(size)")
            XCTAssertEqual(detector.detect(image: try FaceScenes.scene("centred", size).luma).count, 1, "\(size)")
        }
    }

    /// Rectangles per file, from OpenCV.
    private func openCV(_ files: [URL], minSize: Int) throws -> [String: [FaceRectangle]] {
        let output = try TestTools.runOracle("face_oracle.py", ["--min-size", String(minSize)] + files.map(\.path))
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: output) as? [String: [String: Any]])
        return try parsed.mapValues { entry in
            let faces = try XCTUnwrap(entry["faces"] as? [[Int]])
            return faces.map { FaceRectangle(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
        }
    }
}
