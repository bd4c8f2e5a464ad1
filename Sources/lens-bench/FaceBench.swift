import Foundation
import LensCore
import LensFace
import LensImaging

/// `face`: LensFace's detector vs OpenCV's CascadeClassifier (single thread, same cascade, same
/// parameters) on the scenario frames of Tests/oracle/face_scenes.py, with minSize half of
/// auto-capture's too-far size (the search it runs). Goals: ≥ 30 fps at 640×480 on one core,
/// and no slower than OpenCV.
struct FaceBench {
    var runs = 21
    var size = (width: 640, height: 480)

    init(_ argv: [String]) throws {
        var rest = argv[...]
        while let arg = rest.popFirst() {
            switch arg {
            case "--runs": runs = Int(rest.popFirst() ?? "") ?? 0
            case "--size": size = try Measure.size(rest.popFirst(), sides: 64...4096)
            default: throw BenchError("usage: \(usage)")
            }
        }
        guard runs >= 1 else { throw BenchError("--runs must be at least 1") }
    }

    func run() throws {
        let root = Measure.repositoryRoot
        let python = root.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else { throw BenchError("\(python) missing: run scripts/setup") }
        let work = try Measure.tmpfsDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let made = try Measure.run([python, root.appendingPathComponent("Tests/oracle/face_scenes.py").path, work.path,
                                    "--width", String(size.width), "--height", String(size.height)])
        guard made.status == 0 else { throw BenchError("face_scenes.py failed") }
        let files = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.hasSuffix(".jpg") }.sorted()
            .map { work.appendingPathComponent($0).path }

        let detector = FaceDetector(cascade: try LBPCascade(contentsOf: LBPCascade.defaultPath))
        let minSize = FaceAutoCaptureConfiguration().searchMinSize(width: size.width)
        let options = FaceDetector.Options(minSize: minSize)
        let reference = try openCV(python, root, files, minSize: minSize)
        print("LensFace vs OpenCV CascadeClassifier (lbpcascade_frontalface, scale 1.1, neighbours 3, minSize \(minSize)), \(size.width)x\(size.height), one thread, median of \(runs)")
        print("frame              LensFace ms   OpenCV ms   ratio   faces (LensFace / OpenCV)")
        var ours: [Double] = [], theirs: [Double] = []
        for file in files {
            let decoded = try JPEGCodec.decodeRGB(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
            let luma = try LumaImage(rgb: decoded.rgb, width: decoded.width, height: decoded.height)
            var faces: [DetectedFace] = []
            let median = Measure.median(Measure.times(runs: runs) { faces = detector.detect(image: luma, options: options) })
            guard let opencv = reference[file] else { throw BenchError("OpenCV gave no figure for \(file)") }
            ours.append(median)
            theirs.append(opencv.median)
            let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            print(name.padding(toLength: 18, withPad: " ", startingAt: 0)
                + String(format: " %9.2f   %9.2f   %5.2f×   %d / %d", median, opencv.median, median / opencv.median, faces.count, opencv.faces))
        }
        let total = ours.reduce(0, +) / Double(ours.count), referenceTotal = theirs.reduce(0, +) / Double(theirs.count)
        print(String(format: "mean per frame     %9.2f   %9.2f   %5.2f×", total, referenceTotal, total / referenceTotal))
        print(String(format: "LensFace %.0f fps, OpenCV %.0f fps   (goals: ≥ 30 fps, ≤ 1.0× OpenCV's time)", 1000 / total, 1000 / referenceTotal))
        print(String(format: "fps=%.1f opencv_fps=%.1f ratio_vs_opencv=%.2f", 1000 / total, 1000 / referenceTotal, total / referenceTotal))
    }

    /// OpenCV times itself (the test oracle with --runs), so its interpreter start-up stays out of the figure.
    private func openCV(_ python: String, _ root: URL, _ files: [String], minSize: Int) throws -> [String: (median: Double, faces: Int)] {
        let script = root.appendingPathComponent("Tests/oracle/face_oracle.py").path
        let result = try Measure.run([python, script, "--min-size", String(minSize), "--runs", String(runs)] + files)
        guard result.status == 0, let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: [String: Any]] else {
            throw BenchError("OpenCV benchmark failed: \(result.output)")
        }
        return json.compactMapValues { entry in
            guard let median = entry["median_ms"] as? Double, let faces = entry["faces"] as? [Any] else { return nil }
            return (median, faces.count)
        }
    }
}
