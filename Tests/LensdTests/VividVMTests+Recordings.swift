import Foundation
import LensCrypto
import LensTestSupport
import XCTest

/// The recordings VividDeviceTests brought back from the VM, judged on the host by c2pa-python
/// and FFmpeg (neither is in the VM).
extension VividVMTests {
    /// vivid streams 640x480 at 25 fps (VividDeviceTests checks lensd's log) and the loopback
    /// writer feeds 25 fps: one frame is 40 ms.
    static let frameInterval = 1.0 / 25

    func assertRecordings(in out: TemporaryDirectory, source: URL) throws {
        if let video = try assertRecording("vivid-video-h264.mp4", in: out, codec: "h264", make: "vivid") {
            try assertVividColourBars(try firstFrame(of: video, in: out))
        }
        if let video = try assertRecording("vivid-video-mjpeg.mp4", in: out, codec: "mjpeg", make: "vivid") {
            try assertVividColourBars(try firstFrame(of: video, in: out))
        }
        if let video = try assertRecording("vivid-video-sound.mp4", in: out, codec: VividDeviceTests.soundTestEncoding, make: "vivid") {
            try assertToneTrack(video, in: out)
        }
        // Ended by vivid's disconnect: what was recorded until then, signed.
        if let video = try assertRecording("vivid-video-disconnected.mp4", in: out, codec: "h264", make: "vivid") {
            XCTAssertGreaterThanOrEqual(try FFprobeReport.read(video).duration, 1)
        }
        if let video = try assertRecording("loopback-video.mp4", in: out, codec: "mjpeg", make: "v4l2 loopback") {
            // Passed through: every sample is the fed JPEG, byte for byte.
            let fed = Digest.hash(try [UInt8](Data(contentsOf: source))).map { String(format: "%02x", $0) }.joined()
            let samples = try packets(of: video)
            XCTAssertFalse(samples.isEmpty)
            XCTAssertEqual(Set(samples.map(\.sha256)), [fed])
        }
    }

    /// Trusted with the anchor the VM saved, hash-bound as BMFF v3, made by `make`; every frame
    /// decodes cleanly, as many as VideoSigned said, for as long as VideoThumbnailGenerated
    /// announced (± one frame). Returns the file, or nil (a failure) when the VM brought none back.
    private func assertRecording(_ fileName: String, in out: TemporaryDirectory, codec: String, make: String) throws -> URL? {
        let video = out.file(fileName)
        guard FileManager.default.fileExists(atPath: video.path) else {
            XCTFail("the VM brought back no \(fileName)")
            return nil
        }
        let verdict = try ReferenceValidator.assertTrusted(video, anchors: [out.file("anchor-\(fileName).pem")])
        XCTAssertNotNil(verdict.hardBinding["c2pa.hash.bmff.v3"], "\(fileName): \(verdict.hardBinding.keys)")
        XCTAssertEqual(verdict.metadata["c2pa.metadata"]?["tiff:Make"]?.string, make, fileName)
        // Virtual drivers (vivid, v4l2loopback) make no capture claim.
        XCTAssertEqual(verdict.actions.first?.digitalSourceType,
                       "http://cv.iptc.org/newscodes/digitalsourcetype/algorithmicMedia", fileName)

        let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: out.file(fileName + ".json"))) as? [String: Any]
        let announced = try XCTUnwrap(sidecar?["duration"] as? Double, fileName)
        let frames = try XCTUnwrap(sidecar?["frames"] as? Int, fileName)
        let probe = try FFprobeReport.read(video)
        XCTAssertEqual(probe.codec, codec, fileName)
        XCTAssertEqual(probe.decodeErrors, "", fileName)
        XCTAssertTrue((probe.width, probe.height) == (640, 480), "\(fileName): \(probe.width)x\(probe.height)")
        XCTAssertEqual(probe.frames, frames, fileName)
        XCTAssertEqual(probe.duration, announced, accuracy: Self.frameInterval, fileName)

        // Frames the camera dropped (under emulation) show as samples longer than one frame.
        let long = try packets(of: video).filter { $0.duration > 1.5 * Self.frameInterval }.count
        let size = (try? FileManager.default.attributesOfItem(atPath: video.path)[.size] as? Int) ?? -1
        print("\(fileName): \(probe.frames) frames, \(probe.duration) s (announced \(announced) s), \(size) bytes, "
              + "\(long) samples longer than 1.5 frames")
        return video
    }

    /// The sound snd-aloop carried: an Opus track as long as the picture (± one 20 ms packet),
    /// decoding cleanly, with the 1 kHz tone played into the
    /// loopback dominating it.
    private func assertToneTrack(_ video: URL, in out: TemporaryDirectory) throws {
        let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: out.file(video.lastPathComponent + ".json"))) as? [String: Any]
        XCTAssertEqual(sidecar?["audio"] as? Bool, true)
        let announced = try XCTUnwrap(sidecar?["duration"] as? Double)
        guard let sound = try AudioProbe.read(video) else { return XCTFail("\(video.lastPathComponent) has no sound stream") }
        XCTAssertEqual(sound.codec, "opus")
        XCTAssertGreaterThanOrEqual(sound.duration, announced - 0.021, video.lastPathComponent)
        XCTAssertLessThanOrEqual(sound.duration, announced + 0.021, video.lastPathComponent)
        XCTAssertEqual(sound.decodeErrors, "")
        let dominant = sound.dominantFrequency()
        XCTAssertEqual(dominant.frequency, 1000, accuracy: 10)
        XCTAssertGreaterThan(dominant.ratio, 10)
        print("\(video.lastPathComponent): Opus \(sound.duration) s beside \(announced) s of picture, "
              + "dominant \(dominant.frequency) Hz (\(String(format: "%.0f", dominant.ratio))× the next)")
    }

    /// Every video packet as stored (no decoding): its duration in seconds and SHA-256.
    private func packets(of video: URL) throws -> [(duration: Double, sha256: String)] {
        let result = try runProcess(["ffmpeg", "-v", "error", "-i", video.path, "-map", "0:v:0", "-c", "copy",
                                     "-f", "framehash", "-hash", "sha256", "-"])
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
        // "#tb 0: 1/90000", then "stream, dts, pts, duration, size, hash" per packet.
        guard result.status == 0, let base = lines.first(where: { $0.hasPrefix("#tb 0: ") }),
              let slash = base.firstIndex(of: "/"),
              let numerator = Double(base[base.index(base.startIndex, offsetBy: 7)..<slash]),
              let denominator = Double(base[base.index(after: slash)...]) else {
            throw TestToolError("ffmpeg framehash \(video.lastPathComponent): " + String(decoding: result.stderr, as: UTF8.self))
        }
        return try lines.filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 6, let ticks = Double(fields[3]) else { throw TestToolError("framehash line: \(line)") }
            return (ticks * numerator / denominator, fields[5])
        }
    }

    /// The first frame, decoded by FFmpeg, as a PNG.
    private func firstFrame(of video: URL, in out: TemporaryDirectory) throws -> URL {
        let png = out.file(video.deletingPathExtension().lastPathComponent + "-frame1.png")
        let result = try runProcess(["ffmpeg", "-v", "error", "-i", video.path, "-frames:v", "1", "-y", png.path])
        guard result.status == 0 else {
            throw TestToolError("ffmpeg first frame of \(video.lastPathComponent): " + String(decoding: result.stderr, as: UTF8.self))
        }
        return png
    }
}
