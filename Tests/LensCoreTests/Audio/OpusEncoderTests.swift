import LensCore
import LensMedia
import XCTest

final class OpusEncoderTests: XCTestCase {
    func testATonePacketsAtAboutTheBitrateWithTheEncodersLookAhead() throws {
        for channels in [1, 2] {
            let encoder = try OpusEncoder(channels: channels, bitrate: AudioSettings.defaultBitrate(channels: channels))
            // libopus 1.3 at 48 kHz: 2.5 ms of look-ahead plus 4 ms of delay compensation.
            XCTAssertEqual(encoder.preSkip, 312)
            var bytes = 0
            for index in 0..<50 {
                let pcm = AudioTestMedia.tone(frequency: 440, frames: AudioSettings.frameSize,
                                              first: index * AudioSettings.frameSize, channels: channels)
                let packet = try encoder.encode(pcm[...])
                XCTAssertFalse(packet.isEmpty)
                bytes += packet.count
            }
            // One second of sound: VBR lands near the target, well under twice it.
            let bitrate = Double(bytes * 8)
            XCTAssertGreaterThan(bitrate, 0.3 * Double(AudioSettings.defaultBitrate(channels: channels)), "\(channels) channels")
            XCTAssertLessThan(bitrate, 2 * Double(AudioSettings.defaultBitrate(channels: channels)), "\(channels) channels")
        }
    }

    func testSettingsOpusCannotTakeAreRefused() {
        XCTAssertThrowsError(try OpusEncoder(channels: 3, bitrate: 64_000))
        XCTAssertThrowsError(try OpusEncoder(channels: 1, bitrate: 1_000))
    }

    func testDefaultBitratesAre64kMonoAnd96kStereo() {
        XCTAssertEqual(AudioSettings(channels: 1).bitrate, 64_000)
        XCTAssertEqual(AudioSettings(channels: 2).bitrate, 96_000)
        XCTAssertEqual(AudioSettings(channels: 2, bitrate: 128_000).bitrate, 128_000)
    }
}
