import C2PA
import Foundation
import LensCamera
import LensCore
import LensIdentity
import LensImaging
import LensStorage
import LensSystem
import Synchronization

/// `preview`: the live preview in-process, as lensd runs it.
/// - cost: 1280×720 frames offered at 30 fps to a 640×360 preview, from raw RGB (what a YUYV
///   camera gives through libv4l2: box downscale + encode) and from camera JPEGs (DCT-scaled
///   decode + encode): CPU of the whole process as a share of one core (frame copies, encoding,
///   the pipe and its reader: an upper bound on the preview's own cost), and frame offered
///   (dequeued) → written whole, median.
/// - capture: photo frame → signed and stored, and video stop → signed, each without a preview,
///   with a 30 fps preview whose reader keeps up, and with one whose reader has stopped; and
///   lensd's RSS growth over the stopped reader's run, next to one camera frame's size.
struct PreviewBench {
    var size = (width: 1280, height: 720)
    var seconds = 10.0
    var photos = 30
    var recordings = 3

    init(_ argv: [String]) throws {
        var rest = argv[...]
        while let arg = rest.popFirst() {
            switch arg {
            case "--seconds": seconds = Double(rest.popFirst() ?? "") ?? 0
            case "--photos": photos = Int(rest.popFirst() ?? "") ?? 0
            case "--recordings": recordings = Int(rest.popFirst() ?? "") ?? 0
            case "--size":
                let parts = (rest.popFirst() ?? "").split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2 else { throw BenchError("--size WIDTHxHEIGHT") }
                size = (parts[0], parts[1])
            default: throw BenchError("usage: \(usage)")
            }
        }
        guard seconds > 0, photos >= 1, recordings >= 1 else { throw BenchError("usage: \(usage)") }
    }

    private var format: PreviewFormat {
        PreviewFormat(fitting: size, into: (640, 360), fps: 30, cameraRate: 30, quality: PreviewFormat.defaultQuality)
    }

    func run() throws {
        print("preview \(format.width)x\(format.height) q\(format.quality) at 30 fps from \(size.width)x\(size.height) frames at 30 fps")
        let frames = try sourceFrames()
        try cost(name: "raw RGB (YUYV via libv4l2)", frames.map { ($0, false) })
        try cost(name: "camera MJPEG             ", frames.map { (try JPEGCodec.encode(rgb: $0, size), true) })
        try capture()
    }

    /// 30 distinct noisy frames of the synthetic scene, so JPEG sizes are a camera's, not a flat pattern's.
    private func sourceFrames() throws -> [[UInt8]] {
        let camera = SyntheticCamera(width: size.width, height: size.height)
        try camera.open()
        defer { camera.close() }
        var noise = SensorNoise(amplitude: 6)
        return (0..<30).map { _ in
            var rgb = [UInt8](repeating: 0, count: camera.frameByteCount)
            _ = rgb.withUnsafeMutableBytes { camera.renderFrame(into: $0) }
            noise.add(to: &rgb)
            return rgb
        }
    }

    private func cost(name: String, _ frames: [(bytes: [UInt8], isJPEG: Bool)]) throws {
        let latencies = Mutex<[Double]>([])
        let (stream, readEnd) = try PreviewStream.open(format: format, onEnd: { _, _ in }) { latency in
            latencies.withLock { $0.append(Self.milliseconds(latency)) }
        }
        let reader = PipeDrain(readEnd)
        let cpu = CPUTime()
        let count = Int(seconds * 30)
        for index in 0..<count {
            let (bytes, isJPEG) = frames[index % frames.count]
            bytes.withUnsafeBytes {
                stream.offer(VideoFrame(pixels: isJPEG ? .jpeg($0) : .rgb($0), width: size.width, height: size.height,
                                        timestamp: Double(index) / 30, sequence: UInt64(index)))
            }
            Self.sleep(until: cpu.start + .microseconds(Int64(index + 1) * 33_333))
        }
        let used = cpu.shareOfOneCore()
        stream.close()
        reader.finish()
        let stats = stream.stats
        print(String(format: "%@: CPU %5.1f %% of one core (target ≤ 20), offered → written median %6.2f ms (target ≤ 10), %llu written, %llu dropped",
                     name, used * 100, Measure.median(latencies.withLock { $0 }), stats.frames, stats.dropped))
    }

    private enum Preview: String, CaseIterable {
        case none = "no preview           "
        case reading = "preview, reader keeps up"
        case stopped = "preview, reader stopped "
    }

    /// Photos and a recording on a camera thread that streams for the preview, as lensd's.
    private func capture() throws {
        let dir = try Measure.tmpfsDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let identity = DeviceIdentity.load(IdentityConfiguration(stateDirectory: dir, deviceName: "lens-bench"))
        guard let signer = identity.signer else { throw BenchError("no identity: \(identity.problem ?? "?")") }
        let rig = BenchRig(SyntheticCamera(width: size.width, height: size.height, frameRate: 30))
        defer { rig.stop() }
        let photoSigning = PhotoSigning(signer: signer, generator: ClaimGeneratorInfo(name: "lens-bench", version: "0"))
        let videoSigning = VideoSigning(signer: signer, generator: ClaimGeneratorInfo(name: "lens-bench", version: "0"))
        let store = try ResultStore(directory: dir.appendingPathComponent("results"), minimumFreeBytes: 0)
        print("\(photos) photos and \(recordings) recordings of 5 s (H.264) each way, \(size.width)x\(size.height), state dir on tmpfs:")
        for mode in Preview.allCases {
            let rssBefore = Self.residentKiB()
            let started = ContinuousClock.now
            var stream: PreviewStream?, reader: PipeDrain?, readEnd: Int32 = -1
            if mode != .none {
                let opened = try PreviewStream.open(format: format, onEnd: { _, _ in })
                (stream, readEnd) = (opened.stream, opened.readEnd)
                if mode == .reading { reader = PipeDrain(readEnd) }
                rig.pipeline.attach(opened.stream)
                rig.startPumping()
            }
            var toSigned: [Double] = [], stopToSigned: [Double] = []
            for _ in 0..<photos {
                let photo = try rig.onCamera { try $0.capturePhoto() }
                let signed = try photoSigning.sign(photo, location: nil).jpeg
                _ = try store.store(parts: [signed], name: UUID().uuidString.lowercased(), uid: getuid(), mime: "image/jpeg",
                                    fileExtension: "jpg")
                toSigned.append(Date().timeIntervalSince(photo.captureTime) * 1000)
                Thread.sleep(forTimeInterval: 0.2)
            }
            for run in 0..<recordings {
                let path = dir.appendingPathComponent("\(mode)-\(run).mp4").path
                stopToSigned.append(try rig.record(seconds: 5, to: path) { try videoSigning.sign($0, facts: facts, location: nil) })
                try? FileManager.default.removeItem(atPath: path)
            }
            // The stopped reader's case asks for 10 s without reading at the least.
            if mode == .stopped { Self.sleep(until: started + .seconds(10)) }
            let rssAfter = Self.residentKiB()
            rig.stopPumping()
            let stats = stream?.stats
            if let stream {
                rig.pipeline.detach(stream)
                stream.close()
            }
            reader?.finish()
            if readEnd >= 0 && reader == nil { try? FileDescriptor(adopting: readEnd).close() }
            var line = String(format: "  %@: photo frame → signed median %7.2f ms, video stop → signed median %7.2f ms",
                              mode.rawValue, Measure.median(toSigned), Measure.median(stopToSigned))
            if let stats { line += " (preview: \(stats.frames) frames written, \(stats.dropped) dropped)" }
            if mode == .stopped {
                line += String(format: "\n    RSS +%d KiB from opening the preview to after %.0f s of a stopped reader (one camera frame: %d KiB)",
                               rssAfter - rssBefore, PreviewBench.milliseconds(.now - started) / 1000,
                               size.width * size.height * 3 / 1024)
            }
            print(line)
        }
    }

    private var facts: VideoSigning.Facts {
        VideoSigning.Facts(startTime: Date(), make: SyntheticCamera.make, model: SyntheticCamera.model, isSynthetic: true,
                           digitalZoomRatio: nil)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    static func sleep(until instant: ContinuousClock.Instant) {
        let left = instant - .now
        if left > .zero { Thread.sleep(forTimeInterval: milliseconds(left) / 1000) }
    }

    static func residentKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }?
            .split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) } ?? 0
    }
}

private extension JPEGCodec {
    static func encode(rgb: [UInt8], _ size: (width: Int, height: Int)) throws -> [UInt8] {
        try rgb.withUnsafeBytes { try encode(rgb: $0, width: size.width, height: size.height, quality: 85) }
    }
}

/// The process's CPU time (all threads) since it was made, as a share of one core's wall time.
private struct CPUTime {
    let start = ContinuousClock.now
    private let startCPU = CPUTime.now()

    func shareOfOneCore() -> Double {
        (Self.now() - startCPU) / (PreviewBench.milliseconds(.now - start) / 1000)
    }

    private static func now() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

/// A reader that takes everything from a pipe on its own thread, as a player would.
private final class PipeDrain: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let fd: Int32

    init(_ fd: Int32) {
        self.fd = fd
        Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            FileDescriptor.borrowing(fd) { pipe in
                while chunk.withUnsafeMutableBytes({ (try? pipe.read(into: $0)) ?? 0 }) > 0 {}
            }
            done.signal()
        }.start()
    }

    /// After the stream closed: waits for the end of file, closes the read end.
    func finish() {
        done.wait()
        try? FileDescriptor(adopting: fd).close()
    }
}
