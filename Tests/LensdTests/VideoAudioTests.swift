import Foundation
import LensTestSupport
import XCTest

/// Sound on a machine without an ALSA capture device (these tests' host): `audio = auto` records
/// silent videos and says so, `audio = on` disables capture with reason microphone except for a
/// session that turned sound off. (Recording sound is tested on this host by VideoAudioSyncTests,
/// from alsa-lib's file plugin on a FIFO, and in the vivid VM, with snd-aloop.)
final class VideoAudioTests: LensdTestCase {
    override var daemonArguments: [String] {
        super.daemonArguments + ["--synthetic-size", "320x240"] + extraArguments
    }
    var extraArguments: [String] = []

    override func setUpWithError() throws {
        if let cards = try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd"), cards.contains(where: { $0.hasPrefix("pcmC") }) {
            throw XCTSkip("this machine has a sound card")
        }
        try super.setUpWithError()
    }

    func testWithAudioAutoAndNoCaptureDeviceTheVideoIsSilentAndSaysSo() throws {
        let video = outbox.appendingPathComponent("silent.mp4")
        let member = try peer(["open", "video", "start", "record", "recorded:1", "stoprec", "wait:VideoSigned:60",
                               "fetch:\(video.path)"], as: TestUsers.member)
        XCTAssertEqual(try member.finish(), 0, "\(member.lines)")
        let signed = try XCTUnwrap(member.lines.first { $0.hasPrefix("signal VideoSigned") })
        XCTAssertTrue(signed.contains("audio=bool(false)"), signed)
        XCTAssertNil(try AudioProbe.read(video))
        XCTAssertEqual(try FFprobeReport.read(video).decodeErrors, "")
        let anchor = try client().trustAnchorFile(in: tmp)
        try ReferenceValidator.assertTrusted(video, anchors: [anchor])
    }

    func testWithAudioOnAndNoCaptureDeviceCaptureIsDisabledForMicrophoneButNotForASessionWithoutSound() throws {
        extraArguments = ["--audio", "on"]
        try restartDaemon()
        let member = try peer(["open", "wait:CaptureDisabled:10", "video", "start", "record"], as: TestUsers.member)
        XCTAssertEqual(try member.finish(), 0, "\(member.lines)")
        let disabled = try XCTUnwrap(member.lines.first { $0.hasPrefix("signal CaptureDisabled") })
        XCTAssertTrue(disabled.contains("microphone"), disabled)
        let refused = try XCTUnwrap(member.lines.first { $0.hasPrefix("error record") })
        XCTAssertTrue(refused.contains("org.lensd.Lens1.Error.CaptureDisabled"), refused)
        XCTAssertTrue(refused.contains("microphone"), refused)

        let silent = try peer(["open:noaudio", "video", "start", "record", "recorded:0.5", "stoprec", "wait:VideoSigned:60"],
                              as: TestUsers.member)
        XCTAssertEqual(try silent.finish(), 0, "\(silent.lines)")
        XCTAssertFalse(silent.lines.contains { $0.hasPrefix("signal CaptureDisabled") }, "\(silent.lines)")
        let signed = try XCTUnwrap(silent.lines.first { $0.hasPrefix("signal VideoSigned") })
        XCTAssertTrue(signed.contains("audio=bool(false)"), signed)
    }
}
