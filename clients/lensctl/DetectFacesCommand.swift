import FoundationEssentials
import LensSystem
import LensImaging
import LensFace

/// `lensctl detect-faces IMAGE… [--cascade XML] [--json]`: LensFace's detector on JPEG files,
/// in-process (no daemon), with what auto-capture's default thresholds would tell the person.
enum DetectFacesCommand: Command {
    static let name = "detect-faces"
    static let synopsis = "detect-faces IMAGE...  find faces in JPEG files (no daemon): rectangles, quality, instruction"
    static let help = """
    usage: lensctl detect-faces IMAGE... [--cascade XML] [--json]

    Runs lensd's face detector (an LBP cascade evaluated as OpenCV's detectMultiScale does:
    scale factor 1.1, min neighbours 3, faces down to half auto-capture's "too far" size) on
    each JPEG, without the daemon. Prints per image the instruction auto-capture would give
    for it as a single frame (in the language of LANGUAGE/LANG), and per face, largest first:
    the rectangle in pixels, the confidence (overlapping detections), size (face width over
    image width), centre offset, mean brightness and clipped fractions inside the face box
    (0...1), and sharpness (variance of the Laplacian).

      --cascade XML  the cascade file (default \(LBPCascade.defaultPath), from opencv-data)

    exit: 0 every image read (with or without faces) · 1 no usable cascade · 7 an unreadable image
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv, options: ["--cascade"])
        guard !args.positionals.isEmpty else { throw CommandFailure(.usage, "expected at least one IMAGE") }
        let cascade: LBPCascade
        do {
            cascade = try LBPCascade(contentsOf: args.last("--cascade") ?? LBPCascade.defaultPath)
        } catch {
            let hint = args.last("--cascade") == nil ? " (install opencv-data, or pass --cascade)" : ""
            throw CommandFailure(.failed, "face cascade \(error.description)\(hint)")
        }
        let detector = FaceDetector(cascade: cascade)
        let localization = Localization.current()
        var reports: [ImageFaces] = []
        // Auto-capture's defaults, the whole image as the detection rectangle: its search and its verdict.
        let configuration = FaceAutoCaptureConfiguration()
        for path in args.positionals {
            let image = try decode(path)
            let faces = detector.detect(image: image, options: .init(minSize: configuration.searchMinSize(width: image.width)))
            let instruction = configuration.instruction(for: faces.first)
            reports.append(ImageFaces(file: path, width: image.width, height: image.height, instruction: instruction.key,
                                      instruction_text: instruction.localizedText(localization), faces: faces.map(FaceJSON.init)))
        }
        if args.json {
            Output.json(DetectFacesJSON(images: reports))
        } else {
            reports.forEach { Output.line(text($0)) }
        }
        return .ok
    }

    private static func decode(_ path: String) throws -> LumaImage {
        let jpeg = try Output.readInput(path)
        do {
            let decoded = try JPEGCodec.decodeRGB(jpeg)
            return try LumaImage(rgb: decoded.rgb, width: decoded.width, height: decoded.height)
        } catch {
            throw CommandFailure(.unreadableInput, "\(path): not a readable JPEG (\(error))")
        }
    }

    private static func text(_ report: ImageFaces) -> String {
        let count = report.faces.isEmpty ? "no face" : report.faces.count == 1 ? "1 face" : "\(report.faces.count) faces"
        var lines = ["\(report.file): \(count) (\(report.width)×\(report.height)) — \(report.instruction_text)"]
        for (index, face) in report.faces.enumerated() {
            let r = face.rectangle
            lines.append(String(cFormat: "  face %d: x %d y %d %d×%d  confidence %d  size %.2f  offset %.2f  brightness %.2f  clipped %.2f/%.2f  sharpness %.1f",
                                index + 1, r.x, r.y, r.width, r.height, face.confidence, face.size, face.center_offset,
                                face.brightness, face.dark_clipped_fraction, face.bright_clipped_fraction, face.sharpness))
        }
        return lines.joined(separator: "\n")
    }
}

struct DetectFacesJSON: Encodable {
    var images: [ImageFaces]
}

struct ImageFaces: Encodable {
    var file: String
    var width: Int
    var height: Int
    var instruction: String
    var instruction_text: String
    var faces: [FaceJSON]
}

struct FaceJSON: Encodable {
    struct Rectangle: Encodable {
        var x: Int, y: Int, width: Int, height: Int
    }

    var rectangle: Rectangle
    var confidence: Int
    var size: Double
    var center_offset: Double
    var brightness: Double
    var dark_clipped_fraction: Double
    var bright_clipped_fraction: Double
    var sharpness: Double

    init(_ face: DetectedFace) {
        let r = face.rectangle
        rectangle = Rectangle(x: r.x, y: r.y, width: r.width, height: r.height)
        confidence = face.confidence
        size = face.quality.size
        center_offset = face.quality.centerOffset
        brightness = face.quality.brightness
        dark_clipped_fraction = face.quality.darkClippedFraction
        bright_clipped_fraction = face.quality.brightClippedFraction
        sharpness = face.quality.sharpness
    }
}
