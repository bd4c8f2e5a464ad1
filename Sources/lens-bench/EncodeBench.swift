import Foundation
import LensCamera
import LensCore
import LensImaging
import LensMedia
import Synchronization

/// `encode`: the video path's CPU cost on one thread — synthetic camera frames (rendered
/// untimed, the camera's clock stepped one frame at a time), RGB → I420 timed on its own, then
/// H264Encoder (OpenH264 with lensd's settings) timed per frame; and the MJPEG path's decode
/// to I420 on a JPEG of the last frame. The synthetic scene is mostly
/// flat and compresses to almost nothing, so it runs a second time with sensor-like noise
/// added (uniform ±10 per channel, new every frame, as FACTS §1 measured with), the figure to
/// compare with a real camera.
struct EncodeBench {
    var size = (width: 1280, height: 720)
    var frames = 300
    let frameRate = 30.0
    let noiseAmplitude = 10

    init(_ argv: [String]) throws {
        var rest = argv[...]
        while let arg = rest.popFirst() {
            switch arg {
            case "--frames": frames = Int(rest.popFirst() ?? "") ?? 0
            case "--size": size = try Measure.size(rest.popFirst())
            default: throw BenchError("usage: \(usage)")
            }
        }
        guard frames >= 1 else { throw BenchError("--frames must be at least 1") }
    }

    func run() throws {
        print("synthetic camera \(size.width)x\(size.height) at \(Int(frameRate)) fps, \(frames) frames, OpenH264 on one thread")
        for noise in [0, noiseAmplitude] {
            print(noise == 0 ? "clean synthetic scene:" : "with sensor-like noise (±\(noise)):")
            try measure(noise: noise)
        }
    }

    private func measure(noise: Int) throws {
        let clock = SteppingClock(step: 1 / frameRate)
        let camera = SyntheticCamera(width: size.width, height: size.height, frameRate: frameRate, clock: { clock.next() })
        try camera.open()
        defer { camera.close() }
        let settings = H264Settings(width: size.width & ~1, height: size.height & ~1, frameRate: frameRate)
        let encoder = try H264Encoder(settings: settings)
        var rgb = [UInt8](repeating: 0, count: camera.frameByteCount)
        var image = I420Image(width: size.width, height: size.height)
        var sensor = SensorNoise(amplitude: noise)
        var conversions: [Double] = [], encodes: [Double] = [], bytes = 0
        for index in 0..<frames {
            _ = rgb.withUnsafeMutableBytes { camera.renderFrame(into: $0) }
            sensor.add(to: &rgb)
            conversions += Measure.times(runs: 1) {
                rgb.withUnsafeBytes { PixelConversion.convert(rgb: $0, width: size.width, height: size.height, into: &image) }
            }
            var frame: H264Frame?
            encodes += try Measure.times(runs: 1) { frame = try encoder.encode(image, timestamp: Double(index) / frameRate) }
            bytes += frame?.sample.count ?? 0
        }
        let fps = Double(frames) / (encodes.reduce(0, +) / 1000)
        print(String(format: "  H264Encoder.encode %7.1f fps   median %6.2f ms, p99 %6.2f ms   (target ≥ 100 fps at 720p)",
                     fps, Measure.median(encodes), percentile(encodes, 0.99)))
        print(String(format: "    one core's share at %.0f fps: %.0f %%   (target ≤ 30 %%)", frameRate, 100 * frameRate / fps))
        print(String(format: "  RGB → I420         median %6.2f ms per frame", Measure.median(conversions)))
        // The MJPEG camera's path: the last frame as a camera JPEG, decoded straight to I420.
        let jpeg = try rgb.withUnsafeBytes { try JPEGCodec.encode(rgb: $0, width: size.width, height: size.height, quality: 90) }
        let jpegConversions = try Measure.times(runs: 30) {
            try jpeg.withUnsafeBytes { try PixelConversion.convert(jpeg: $0, into: &image) }
        }
        print(String(format: "  JPEG q90 → I420    median %6.2f ms per frame (%d KB)", Measure.median(jpegConversions), jpeg.count / 1024))
        print(String(format: "  bitrate            %7.2f Mb/s (target %.2f)",
                     Double(bytes * 8) * frameRate / Double(frames) / 1e6, Double(settings.bitrate) / 1e6))
    }

    private func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
}

/// A clock that moves one frame interval per reading: every render is the next frame.
private final class SteppingClock: Sendable {
    private let step: TimeInterval
    private let now = Mutex(Date(timeIntervalSince1970: 1_700_000_000))

    init(step: TimeInterval) { self.step = step }

    func next() -> Date {
        now.withLock { now in
            defer { now += step }
            return now
        }
    }
}
