import C2PA
import Foundation
import LensCamera
import LensCore
import LensIdentity
import LensMedia

/// `video`: the recording pipeline in-process on the synthetic camera, state on tmpfs.
/// - stop → VideoSigned: finalize in place + sign into the reserve, for a short and a long
///   recording of noisy frames (fed as fast as the encoder goes; the frames' timestamps say
///   30 fps; ~2.5 Mb/s like a camera's). The hash is taken while recording, so the two should
///   be equal within noise.
/// - real time: frames dropped over `--realtime` seconds of paced 30 fps capture + H.264.
/// - sound: the Opus encoder's share of one core (AudioEncodeBench).
struct VideoBench {
    var size = (width: 1280, height: 720)
    var lengths = [10.0, 60.0]
    var runs = 3
    var realtimeSeconds = 60.0

    init(_ argv: [String]) throws {
        var rest = argv[...]
        while let arg = rest.popFirst() {
            switch arg {
            case "--runs": runs = Int(rest.popFirst() ?? "") ?? 0
            case "--realtime": realtimeSeconds = Double(rest.popFirst() ?? "") ?? -1
            case "--lengths": lengths = (rest.popFirst() ?? "").split(separator: ",").compactMap { Double($0) }
            case "--size": size = try Measure.size(rest.popFirst())
            default: throw BenchError("usage: \(usage)")
            }
        }
        guard runs >= 1, realtimeSeconds >= 0, !lengths.isEmpty else { throw BenchError("usage: \(usage)") }
    }

    func run() throws {
        let dir = try Measure.tmpfsDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let identity = DeviceIdentity.load(IdentityConfiguration(stateDirectory: dir, deviceName: "lens-bench"))
        guard let signer = identity.signer else { throw BenchError("no identity: \(identity.problem ?? "?")") }
        let signing = VideoSigning(signer: signer, generator: ClaimGeneratorInfo(name: "lens-bench", version: "0"))
        print("synthetic camera \(size.width)x\(size.height) H.264, state dir on tmpfs, median of \(runs)")
        for seconds in lengths {
            var latencies: [Double] = [], sizes: [Int] = []
            for run in 0..<runs {
                let path = dir.appendingPathComponent("v\(Int(seconds))-\(run).mp4").path
                let recorder = try record(seconds: seconds, to: path)
                let clock = ContinuousClock(), start = clock.now
                let video = try recorder.finish()
                try signing.sign(video, facts: facts, location: nil)
                let elapsed = clock.now - start
                latencies.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
                sizes.append(video.size)
                try FileManager.default.removeItem(atPath: path)
            }
            print(String(format: "%4.0f s recording (%5.1f MB): stop → VideoSigned median %7.2f ms",
                         seconds, Double(sizes[0]) / 1e6, Measure.median(latencies)))
        }
        if realtimeSeconds > 0 { try realtime(in: dir) }
        try AudioEncodeBench().run(runs: runs)
    }

    private var facts: VideoSigning.Facts {
        VideoSigning.Facts(startTime: Date(), make: SyntheticCamera.make, model: SyntheticCamera.model, isSynthetic: true,
                           digitalZoomRatio: nil)
    }

    /// Renders and records `seconds` of 30 fps frames as fast as they can be encoded.
    private func record(seconds: Double, to path: String) throws -> VideoRecorder {
        let camera = SyntheticCamera(width: size.width, height: size.height)
        try camera.open()
        defer { camera.close() }
        let recorder = VideoRecorder(path: path, encoding: .h264(bitrate: nil), frameRate: 30, creationTime: Date())
        var rgb = [UInt8](repeating: 0, count: camera.frameByteCount)
        var sensor = SensorNoise(amplitude: 10)
        for frame in 0..<Int(seconds * 30) {
            _ = rgb.withUnsafeMutableBytes { camera.renderFrame(into: $0) }
            sensor.add(to: &rgb)
            try rgb.withUnsafeBytes { buffer in
                try recorder.append(VideoFrame(pixels: .rgb(buffer), width: size.width,
                                               height: size.height, timestamp: Double(frame) / 30, sequence: UInt64(frame)))
            }
        }
        return recorder
    }

    /// Paced capture as the daemon runs it: a frame that is not picked up in time is skipped by the camera.
    private func realtime(in dir: URL) throws {
        let camera = SyntheticCamera(width: size.width, height: size.height, frameRate: 30)
        try camera.open()
        defer { camera.close() }
        let path = dir.appendingPathComponent("realtime.mp4").path
        let recorder = VideoRecorder(path: path, encoding: .h264(bitrate: nil), frameRate: 30, creationTime: Date())
        var first: UInt64?, last: UInt64 = 0, frames = 0
        while recorder.duration < realtimeSeconds {
            try camera.withNextVideoFrame { frame in
                first = first ?? frame.sequence
                last = frame.sequence
                frames += 1
                try recorder.append(frame)
            }
        }
        _ = try recorder.finish()
        let expected = Int(last - (first ?? 0)) + 1
        print(String(format: "real time %.0f s at 30 fps (camera-paced synthetic frames, no added noise): %d frames recorded, %d dropped (target 0)",
                     realtimeSeconds, frames, expected - frames))
    }
}
