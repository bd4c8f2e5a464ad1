import Foundation
import LensBus
import LensContract
import LensTestSupport
import XCTest

/// Sound in process on a machine without an ALSA capture device (these tests' host): `audio =
/// auto` records silent videos and says so, `audio = on` disables capture with reason microphone
/// except for a session that turned sound off. (Recording sound is tested on this host by
/// VideoAudioSyncTests, from alsa-lib's file plugin on a FIFO, and in the vivid VM, with snd-aloop.)
final class VideoSoundFlowTests: XCTestCase {
    private var lensd: DaemonHarness!

    override func setUpWithError() throws {
        if let cards = try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd"), cards.contains(where: { $0.hasPrefix("pcmC") }) {
            throw XCTSkip("this machine has a sound card")
        }
        try TestUsers.ensure()
    }

    override func tearDownWithError() throws {
        try lensd?.shutDown()
        lensd = nil
    }

    private func member() throws -> HarnessClient { lensd.client(uid: try TestUsers.uid(TestUsers.member)) }

    func testWithAudioAutoAndNoCaptureDeviceTheVideoIsSilentAndSaysSo() throws {
        lensd = try DaemonHarness()
        let tmp = try TemporaryDirectory(prefix: "lensd-sound-flow")
        let c = try member()
        let session = try c.claimedSession()
        let (name, info) = try c.recordVideo(in: session, seconds: 1)
        XCTAssertEqual(info["audio"]?.boolValue, false, "\(info)")
        let video = tmp.file("silent.mp4")
        try c.fetchResult(name, in: session, to: video)
        XCTAssertNil(try AudioProbe.read(video))
        XCTAssertEqual(try FFprobeReport.read(video).decodeErrors, "")
        try ReferenceValidator.assertTrusted(video, anchors: [try c.trustAnchorFile(in: tmp)])
    }

    func testWithAudioOnAndNoCaptureDeviceCaptureIsDisabledForMicrophoneButNotForASessionWithoutSound() throws {
        lensd = try DaemonHarness(["--audio", "on"])
        let c = try member()
        let session = try c.openSession()
        let disabled = try c.waitForSignal("CaptureDisabled", path: session, timeout: .seconds(10))
        XCTAssertTrue(disabled.arguments.first?.stringArrayValue?.contains("microphone") == true, "\(disabled.arguments)")
        try c.set(session, "CameraMode", .string("video"))
        try c.call(session, "StartCaptureSession")
        XCTAssertThrowsError(try c.call(session, "StartVideoCapture")) {
            XCTAssertEqual(($0 as? BusError)?.name, "\(Lens1.errorPrefix)CaptureDisabled")
            XCTAssertTrue(($0 as? BusError)?.message.contains("microphone") == true, "\($0)")
        }
        c.disconnect()

        let silent = try member()
        let quiet = try silent.openSession(["audio": .bool(false)])
        try silent.call(quiet, "StartCaptureSession")
        let info = try silent.recordVideo(in: quiet, seconds: 0.5).info
        XCTAssertFalse(silent.signals.contains { $0.path == quiet && $0.member == "CaptureDisabled" }, "\(silent.signals)")
        XCTAssertEqual(info["audio"]?.boolValue, false, "\(info)")
    }
}
