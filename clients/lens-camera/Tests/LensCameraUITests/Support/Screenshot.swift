import Foundation
import LensTestSupport

/// What the display shows, as a PNG kept for the record and its RGB pixels for checks.
struct Screenshot {
    struct Rect {
        var x: Int, y: Int, width: Int, height: Int
    }
    struct Pixel: Equatable {
        var red: UInt8, green: UInt8, blue: UInt8
    }

    let file: URL
    let width: Int
    let height: Int
    private let rgb: [UInt8]

    /// Captures the whole screen into `file` (ImageMagick's import, as a person's screenshot).
    static func take(display: String, to file: URL) throws -> Screenshot {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let shot = try runProcess(["import", "-display", display, "-window", "root", "png:\(file.path)"])
        guard shot.status == 0 else { throw TestToolError("import failed: \(String(decoding: shot.stderr, as: UTF8.self))") }
        let pixels = try runProcess(["convert", file.path, "-depth", "8", "rgb:-"])
        guard pixels.status == 0 else { throw TestToolError("convert failed: \(String(decoding: pixels.stderr, as: UTF8.self))") }
        let size = XvfbDisplay.size
        guard pixels.stdout.count == size.width * size.height * 3 else {
            throw TestToolError("\(file.lastPathComponent): \(pixels.stdout.count) bytes of RGB, expected \(size.width)×\(size.height)×3")
        }
        return Screenshot(file: file, width: size.width, height: size.height, rgb: Array(pixels.stdout))
    }

    /// The camera page's dark control bar is on screen (the unavailable page and the viewer are light).
    var showsCameraPage: Bool {
        let bar = pixel(x: LensCameraTestCase.Layout.controlBar.x + 3, y: LensCameraTestCase.Layout.controlBar.y + 4)
        return bar == Pixel(red: 0x1e, green: 0x1e, blue: 0x1e)
    }

    func pixel(x: Int, y: Int) -> Pixel {
        let i = (y * width + x) * 3
        return Pixel(red: rgb[i], green: rgb[i + 1], blue: rgb[i + 2])
    }

    /// How many pixels of `rect` differ from `other`'s.
    func differingPixels(from other: Screenshot, in rect: Rect) -> Int {
        count(in: rect) { x, y, pixel in pixel != other.pixel(x: x, y: y) }
    }

    /// How many pixels of `rect` satisfy `test`.
    func count(in rect: Rect, where test: (Int, Int, Pixel) -> Bool) -> Int {
        var n = 0
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) where test(x, y, pixel(x: x, y: y)) { n += 1 }
        }
        return n
    }

    /// Pixels close to `color` (each channel within `tolerance`).
    func count(near color: Pixel, tolerance: Int = 24, in rect: Rect) -> Int {
        count(in: rect) { _, _, p in
            abs(Int(p.red) - Int(color.red)) <= tolerance && abs(Int(p.green) - Int(color.green)) <= tolerance
                && abs(Int(p.blue) - Int(color.blue)) <= tolerance
        }
    }

    /// How many distinct colours `rect` holds (1: a plain area).
    func distinctColors(in rect: Rect) -> Int {
        var seen = Set<UInt32>()
        _ = count(in: rect) { _, _, p in
            seen.insert(UInt32(p.red) << 16 | UInt32(p.green) << 8 | UInt32(p.blue))
            return false
        }
        return seen.count
    }
}
