import Foundation
import LensMedia
import LensTestSupport
import XCTest
import LensCore

/// The OpenH264 encoder, judged by FFmpeg: what it writes must decode as the stream lensd
/// promises (Constrained Baseline, limited range, constant parameter sets, IDRs on schedule).
final class H264EncoderTests: XCTestCase {
    private func encode(_ images: [I420Image], _ settings: H264Settings, forceKeyFrameAt forced: Set<Int> = []) throws -> [H264Frame] {
        let encoder = try H264Encoder(settings: settings)
        return try images.enumerated().map { index, image in
            let frame = try encoder.encode(image, timestamp: Double(index) / settings.frameRate, forceKeyFrame: forced.contains(index))
            return try XCTUnwrap(frame, "frame \(index) produced no output")
        }
    }

    func testSyntheticFramesDecodeAsConstrainedBaselineWithKeyFramesOnSchedule() throws {
        let images = try H264TestSupport.syntheticFrames(width: 320, height: 240, count: 60)
        let settings = H264Settings(width: 320, height: 240, frameRate: 30, keyFrameInterval: 30)
        let frames = try encode(images, settings)
        let dir = try TemporaryDirectory()
        let file = dir.file("synthetic.h264")
        try H264TestSupport.annexB(frames).write(to: file)

        let probe = try H264TestSupport.probe(file)
        XCTAssertEqual(probe["codec_name"], "h264")
        XCTAssertEqual(probe["profile"], "Constrained Baseline")
        XCTAssertEqual(probe["width"], "320")
        XCTAssertEqual(probe["height"], "240")
        XCTAssertEqual(probe["nb_read_frames"], "60")
        // The VUI says what PixelConversion produces.
        XCTAssertEqual(probe["color_range"], "tv")
        XCTAssertEqual(probe["color_space"], "smpte170m")

        XCTAssertEqual(frames.indices.filter { frames[$0].isKeyFrame }, [0, 30])
        XCTAssertEqual(try H264TestSupport.decodedKeyFrames(file), [0, 30])

        let decoded = try H264TestSupport.decode(file, width: 320, height: 240)
        XCTAssertEqual(decoded.complaints, "")
        XCTAssertEqual(decoded.frames.count, 60)
        // The decoder shows the pictures that went in, not merely some picture.
        for index in [0, 29, 59] {
            XCTAssertGreaterThan(H264TestSupport.lumaPSNR(decoded.frames[index], images[index]), 30, "frame \(index)")
        }
        XCTAssertLessThan(H264TestSupport.lumaPSNR(decoded.frames[59], images[0]),
                          H264TestSupport.lumaPSNR(decoded.frames[59], images[59]) - 3, "frames 0 and 59 differ")
    }

    func testParameterSetsComeWithEveryKeyFrameAndNeverChange() throws {
        let images = try H264TestSupport.syntheticFrames(width: 320, height: 240, count: 40)
        let frames = try encode(images, H264Settings(width: 320, height: 240, frameRate: 30, keyFrameInterval: 10))
        let keyFrames = frames.filter(\.isKeyFrame)
        XCTAssertEqual(keyFrames.count, 4)
        let sps = try XCTUnwrap(keyFrames.first?.sps), pps = try XCTUnwrap(keyFrames.first?.pps)
        XCTAssertEqual(sps.first.map { $0 & 0x1F }, 7)
        XCTAssertEqual(pps.first.map { $0 & 0x1F }, 8)
        // profile_idc 66 (Baseline) with constraint_set1 (Constrained Baseline).
        XCTAssertEqual(sps[1], 66)
        XCTAssertNotEqual(sps[2] & 0x40, 0)
        for frame in keyFrames {
            XCTAssertEqual(frame.sps, sps)
            XCTAssertEqual(frame.pps, pps)
        }
        for frame in frames where !frame.isKeyFrame {
            XCTAssertNil(frame.sps)
            XCTAssertNil(frame.pps)
        }
    }

    func testSamplesAreLengthPrefixedSlicesWithoutParameterSets() throws {
        let images = try H264TestSupport.syntheticFrames(width: 320, height: 240, count: 3)
        let frames = try encode(images, H264Settings(width: 320, height: 240, frameRate: 30))
        for (index, frame) in frames.enumerated() {
            var offset = 0, types: [UInt8] = []
            while offset + 4 <= frame.sample.count {
                let length = frame.sample[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
                XCTAssertGreaterThan(length, 0)
                XCTAssertLessThanOrEqual(offset + 4 + length, frame.sample.count)
                guard length > 0, offset + 4 + length <= frame.sample.count else { break }
                types.append(frame.sample[offset + 4] & 0x1F)
                offset += 4 + length
            }
            XCTAssertEqual(offset, frame.sample.count, "frame \(index) ends with a whole NAL unit")
            // 5 = IDR slice, 1 = non-IDR slice; no SPS (7), PPS (8) or AUD (9).
            XCTAssertEqual(Set(types), index == 0 ? [5] : [1], "frame \(index): NAL types \(types)")
        }
    }

    func testForcedKeyFrameIsAnIDR() throws {
        let images = try H264TestSupport.syntheticFrames(width: 320, height: 240, count: 20)
        let frames = try encode(images, H264Settings(width: 320, height: 240, frameRate: 30, keyFrameInterval: 60),
                                forceKeyFrameAt: [7])
        XCTAssertEqual(frames.indices.filter { frames[$0].isKeyFrame }, [0, 7])
        XCTAssertNotNil(frames[7].sps)
        let dir = try TemporaryDirectory()
        let file = dir.file("forced.h264")
        try H264TestSupport.annexB(frames).write(to: file)
        XCTAssertEqual(try H264TestSupport.decodedKeyFrames(file), [0, 7])
    }

    func testBitrateFollowsTheTargetAt720p() throws {
        let settings = H264Settings(width: 1280, height: 720, frameRate: 30)
        XCTAssertEqual(settings.bitrate, 2_500_000)
        XCTAssertEqual(settings.keyFrameInterval, 60)
        let frames = try encode(H264TestSupport.movingTexture(width: 1280, height: 720, count: 90), settings)
        let bitsPerSecond = Double(frames.map(\.sample.count).reduce(0, +) * 8) * settings.frameRate / Double(frames.count)
        // A generous band: rate control settles over a second or two.
        XCTAssertGreaterThan(bitsPerSecond, 0.5 * Double(settings.bitrate), "\(bitsPerSecond) b/s")
        XCTAssertLessThan(bitsPerSecond, 1.5 * Double(settings.bitrate), "\(bitsPerSecond) b/s")
    }

    func testDefaultsScaleWithThePicture() {
        let vga = H264Settings(width: 640, height: 360, frameRate: 15)
        XCTAssertEqual(vga.bitrate, 625_000)
        XCTAssertEqual(vga.maxBitrate, 937_500)
        XCTAssertEqual(vga.keyFrameInterval, 30)
        XCTAssertEqual(H264Settings(width: 1920, height: 1080, frameRate: 30).bitrate, 5_625_000)
        XCTAssertEqual(H264Settings(width: 640, height: 360, frameRate: 15, bitrate: 1_000_000, keyFrameInterval: 5).keyFrameInterval, 5)
    }

    func testUnusableSettingsAndPicturesThrow() throws {
        for settings in [H264Settings(width: 321, height: 240, frameRate: 30), H264Settings(width: 8, height: 8, frameRate: 30),
                         H264Settings(width: 320, height: 240, frameRate: 0), H264Settings(width: 320, height: 240, frameRate: .nan)] {
            XCTAssertThrowsError(try H264Encoder(settings: settings)) { XCTAssertTrue($0 is H264Error, "\($0)") }
        }
        let encoder = try H264Encoder(settings: H264Settings(width: 320, height: 240, frameRate: 30))
        XCTAssertThrowsError(try encoder.encode(I420Image(width: 640, height: 480), timestamp: 0)) {
            XCTAssertTrue($0 is H264Error, "\($0)")
        }
        XCTAssertNotNil(try encoder.encode(I420Image(width: 320, height: 240), timestamp: 0))
    }
}
