import Foundation
import LensBus
import LensTestSupport
import XCTest

/// lensd on the kernel's vivid driver. Runs only inside the VM (scripts/vm/run-in-vivid-vm.sh,
/// started by VividVMTests), where vivid has two cameras and a metadata node between them, so
/// the second camera is /dev/video2. Signed photos and videos go to $LENSD_VM_OUT for c2pa-python
/// and FFmpeg on the host (neither is in the VM).
final class VividDeviceTests: LensdTestCase {
    var camera = "auto"
    var captureSize = "640x480"
    var videoEncoding = "h264"
    /// Off but for the sound test: the VM's one sound card is snd-aloop's, silent unless played into.
    var audio = ["--audio", "off"]
    override var daemonArguments: [String] {
        ["--camera", camera, "--allow-virtual-devices", "true", "--capture-size", captureSize,
         "--video-encoding", videoEncoding, "--location", "optional", "--gpsd", "none"] + audio
    }

    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["VIVID_VM"] == "1", "needs vivid: runs inside the VM (VividVMTests)")
        try Self.grantDeviceAccess()
        try super.setUpWithError()
    }
    /// Most tests here start lensd on a camera or with a setting of their own.
    override class var startsDaemonInSetUp: Bool { false }

    /// The back camera is the one a session starts on, even when it is listed second; the
    /// toggle then goes to the front one.
    func testASessionStartsOnTheBackCameraWhateverTheOrder() throws {
        try startDaemon(arguments: daemonArguments + ["--camera-position", "/dev/video0=front,/dev/video2=back"])
        let c = try client()
        let devices = try XCTUnwrap(c.callManager("ListDevices").first?.arrayValue).compactMap(\.vardictValue)
        XCTAssertEqual(devices.compactMap { $0["position"]?.stringValue }, ["front", "back"])
        let s = try c.openSession()
        XCTAssertEqual(try c.get(s, "CurrentDevice").vardictValue?["path"]?.stringValue, "/dev/video2")
        try c.call(s, "StartCaptureSession")
        XCTAssertEqual(try c.call(s, "ChangeCamera").first?.vardictValue?["path"]?.stringValue, "/dev/video0")
    }

    func testTwoCamerasCaptureSignedFramesAtTheRequestedSizes() throws {
        try startDaemon()
        let c = try client()
        let devices = try XCTUnwrap(c.callManager("ListDevices").first?.arrayValue).compactMap(\.vardictValue)
        XCTAssertEqual(devices.compactMap { $0["path"]?.stringValue }, ["/dev/video0", "/dev/video2"])
        XCTAssertEqual(devices.compactMap { $0["position"]?.stringValue }, ["back", "front"])
        XCTAssertTrue(devices.allSatisfy { $0["driver"]?.stringValue == "vivid" && $0["virtual"]?.boolValue == true })

        try capture(c, expecting: (640, 480), savedAs: "vivid-640x480.jpg")
        // vivid offers 25 fps at most at 640x480 (its default is 5): lensd asked for 30.
        XCTAssertTrue(daemon.log.contains("/dev/video0 streams 640x480 RGB3 at 25.0 fps"), daemon.log)

        captureSize = "1280x720"
        try restartDaemon()
        try capture(try client(), expecting: (1280, 720), savedAs: "vivid-1280x720.jpg")
        XCTAssertTrue(daemon.log.contains("/dev/video0 streams 1280x720 RGB3 at 12.5 fps"), daemon.log)
    }

    func testMissingControlsAnswerUnsupportedAndSetFocusFailed() throws {
        try startDaemon()
        let c = try client()
        let s = try c.openSession()
        try c.call(s, "StartCaptureSession")
        // vivid has neither autofocus nor a region of interest: a tap is refused, never answered with a point.
        XCTAssertThrowsError(try c.call(s, "FocusAt", [.double(0.25), .double(0.75)])) {
            XCTAssertEqual(($0 as? BusError)?.shortName, "SetFocusFailed")
            XCTAssertTrue("\($0)".contains("no region-of-interest control"), "\($0)")
        }
        XCTAssertThrowsError(try c.call(s, "SetFlashMode", [.string("on")])) {
            XCTAssertEqual(($0 as? BusError)?.shortName, "Unsupported")
        }
        // vivid has no zoom control: zoom is digital, and still answers.
        XCTAssertEqual(try c.call(s, "SetZoomFactor", [.double(2)]).first?.doubleValue, 2)
        let device = try XCTUnwrap(try c.get(s, "CurrentDevice").vardictValue)
        XCTAssertEqual(device["digitalZoom"]?.boolValue, true)
        XCTAssertEqual(device["hasFlash"]?.boolValue, false)
        try capture(c, session: s, expecting: (640, 480), savedAs: "vivid-zoom2.jpg")
    }

    func testADeviceInUseIsBusyAndAnUnreadableOneIsPermissionDenied() throws {
        try startDaemon()
        let c = try client()
        let s = try c.openSession()
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/usr/bin/v4l2-ctl")
        other.arguments = ["-d", "/dev/video0", "--stream-mmap", "--stream-count=1000"]
        let output = tmp.file("v4l2-ctl.out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        other.standardOutput = try FileHandle(forWritingTo: output)
        other.standardError = other.standardOutput
        try other.run()
        defer { other.terminate(); other.waitUntilExit() }
        // In use once it streams: v4l2-ctl prints a '<' for each frame it dequeues.
        try waitUntil("frame streamed by v4l2-ctl", while: other) {
            (try? String(contentsOf: output, encoding: .utf8))?.contains("<") ?? false
        }
        XCTAssertThrowsError(try c.call(s, "StartCaptureSession")) {
            XCTAssertEqual(($0 as? BusError)?.shortName, "Busy")
            XCTAssertTrue(($0 as? BusError)?.message.contains("in use by another program") == true, "\($0)")
        }
        other.terminate()
        other.waitUntilExit()

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: "/dev/video0")
        XCTAssertThrowsError(try c.call(s, "StartCaptureSession")) {
            XCTAssertEqual(($0 as? BusError)?.shortName, "CameraPermissionDenied")
        }
        try Self.grantDeviceAccess()
        try c.call(s, "StartCaptureSession")
    }

    /// A recording under way when the camera goes ends with VideoRecordingStopped then VideoRecordingFailed, and what was
    /// recorded is still finalized, signed and delivered (the host judges it). Then, with vivid
    /// back, a claim whose stream breaks fails the session and disables capture until vivid is
    /// reloaded. (vivid's `disconnect` breaks only open streams: the node opens again at once,
    /// so after the recording's own failure closed the device, lensd may rightly see it as back.)
    func testDisconnectFailsTheSessionAndReloadingVividEnablesCaptureAgain() throws {
        try startDaemon()
        let c = try client()
        let s = try c.openSession()
        try c.call(s, "StartCaptureSession")
        try c.set(s, "CameraMode", .string("video"))
        try c.call(s, "StartVideoCapture")
        // 2 s of frames, not of wall time: under emulation the encoder had written 0.075 s by then.
        try c.waitUntilRecorded(s, seconds: 2, timeout: 300)
        try run(["v4l2-ctl", "-d", "/dev/video0", "-c", "disconnect=1"])
        let recordingFailed = try c.waitForSignal("VideoRecordingFailed", path: s)
        XCTAssertEqual(recordingFailed.arguments.first?.stringValue, "org.lensd.Lens1.Error.CameraSessionFailed")
        // As the SDK: "did stop recording" whenever frames stop, before the failure (the same loop turn sends both).
        XCTAssertTrue(c.signals.contains { $0.member == "VideoRecordingStopped" && $0.path == s },
                      "VideoRecordingStopped must come before VideoRecordingFailed; got \(c.signals.map(\.member))")
        try bringBackVideo(c, session: s, as: "vivid-video-disconnected.mp4")

        try reloadVivid()
        try waitUntilCaptureEnabled(c, s)
        try c.set(s, "CameraMode", .string("photo"))
        c.forgetSignals()
        try c.call(s, "StartCaptureSession")
        try run(["v4l2-ctl", "-d", "/dev/video0", "-c", "disconnect=1"])
        let failed = try c.waitForSignal("Failed", path: s)
        XCTAssertEqual(failed.arguments.first?.stringValue, "org.lensd.Lens1.Error.CameraSessionFailed")
        let disabled = try c.waitForSignal("CaptureDisabled", path: s)
        XCTAssertEqual(disabled.arguments.first?.arrayValue?.compactMap(\.stringValue), ["camera"])
        // A CaptureEnabled from before the disconnect may still be queued behind the property it
        // follows: only one sent after this CaptureDisabled says the reload brought the camera back.
        c.forgetSignals()

        try reloadVivid()
        try c.waitForSignal("CaptureEnabled", path: s)
        try c.call(s, "StartCaptureSession")
        let name = try XCTUnwrap(c.call(s, "BeginCapture").first?.stringValue)
        try c.waitForSignal("PhotoSigned", path: s, timeout: 60) { $0.arguments.first?.stringValue == name }
    }

    private func waitUntilCaptureEnabled(_ c: TestClient, _ s: String, timeout: TimeInterval = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try c.get(s, "CaptureEnabled").boolValue != true {
            guard Date() < deadline else { throw TestToolError("capture still disabled after \(timeout) s") }
            try c.drain(for: 0.2)
        }
    }

    func testACameraThatAppearsLaterIsPickedUp() throws {
        try unloadVivid()
        try startDaemon()
        let c = try client()
        let s = try c.openSession()
        XCTAssertEqual(try c.get(s, "DisabledReasons").arrayValue?.compactMap(\.stringValue), ["camera"])
        XCTAssertEqual(try c.get(TestClient.managerPath, "CameraPresent", interface: TestClient.manager).boolValue, false)

        try loadVivid()
        try c.waitForSignal("CaptureEnabled", path: s, timeout: 10)
        try c.waitForSignal("PropertiesChanged", path: TestClient.managerPath) {
            $0.arguments.dropFirst().first?.vardictValue?["CameraPresent"]?.boolValue == true
        }
        try c.call(s, "StartCaptureSession")
        let name = try XCTUnwrap(c.call(s, "BeginCapture").first?.stringValue)
        try c.waitForSignal("PhotoSigned", path: s, timeout: 60) { $0.arguments.first?.stringValue == name }
    }

    /// v4l2loopback offers only MJPG here: lensd must sign the fed JPEG untouched (the host
    /// compares it byte for byte once the C2PA segments are taken out), and zoom by cropping it
    /// losslessly (a 2× photo is half the size; the host compares its pixels with the source's).
    func testLoopbackMJPEGIsSignedAsFed() throws {
        let (node, feeder) = try feedLoopback()
        defer { feeder.terminate(); feeder.waitUntilExit() }
        camera = node
        try startDaemon()

        let c = try client()
        let devices = try XCTUnwrap(c.callManager("ListDevices").first?.arrayValue).compactMap(\.vardictValue)
        XCTAssertEqual(devices.compactMap { $0["path"]?.stringValue }, [node])
        XCTAssertEqual(devices.first?["driver"]?.stringValue, "v4l2 loopback")
        let s = try c.openSession()
        try capture(c, session: s, expecting: (640, 480), savedAs: "loopback.jpg")
        XCTAssertTrue(daemon.log.contains("\(node) streams 640x480 MJPG"), daemon.log)
        XCTAssertEqual(try c.call(s, "SetZoomFactor", [.double(2)]).first?.doubleValue, 2)
        try capture(c, session: s, expecting: (320, 240), savedAs: "loopback-zoom2.jpg")
    }

    /// vivid's RGB frames coded to H.264 (the default encoding).
    func testVividRecordsSignedH264() throws {
        try startDaemon()
        try record(savedAs: "vivid-video-h264.mp4")
        XCTAssertTrue(daemon.log.contains("/dev/video0 streams 640x480 RGB3 at 25.0 fps"), daemon.log)
    }

    /// First the sound nodes are root-only, as the VM boots: StartVideoCapture with audio = on is
    /// MicrophonePermissionDenied, also sent as Failed. Then, with access, sound from snd-aloop's
    /// capture side while FFmpeg plays a 1 kHz tone into its playback side: VideoSigned says
    /// audio true; the host checks the Opus track's length against the picture's and that the
    /// tone dominates it.
    func testVividRecordsSignedVideoWithTheToneFromTheSoundLoopback() throws {
        let (tone, c, s) = try soundRecordingSession(access: 0o600)
        defer { tone.terminate(); tone.waitUntilExit() }
        XCTAssertThrowsError(try c.call(s, "StartVideoCapture")) { error in
            XCTAssertEqual((error as? BusError)?.name, "org.lensd.Lens1.Error.MicrophonePermissionDenied", "\(error)")
            XCTAssertTrue((error as? BusError)?.message.contains("/dev/snd/controlC0") == true, "\(error)")
        }
        let failed = try c.waitForSignal("Failed", path: s)
        XCTAssertEqual(failed.arguments.first?.stringValue, "org.lensd.Lens1.Error.MicrophonePermissionDenied")
        try c.call(s, "Close")

        try Self.setSoundAccess(0o666)
        let info = try record(seconds: 3, savedAs: "vivid-video-sound.mp4")
        XCTAssertEqual(info["audio"]?.boolValue, true, "\(info)\n\(daemon.log)")
        XCTAssertTrue(daemon.log.contains("with sound from hw:Loopback,1,0"), daemon.log)
    }

    /// The tone playing into snd-aloop (the caller ends it), its nodes at `access`, and lensd
    /// restarted with sound on: a session holding the camera in video mode.
    private func soundRecordingSession(access: Int) throws -> (tone: Process, client: TestClient, session: String) {
        let tone = try playTone()
        do {
            try Self.setSoundAccess(access)
            audio = Self.loopbackSound
            videoEncoding = Self.soundTestEncoding
            try startDaemon()
            let c = try client()
            let s = try c.openSession()
            try c.call(s, "StartCaptureSession")
            try c.set(s, "CameraMode", .string("video"))
            return (tone, c, s)
        } catch {
            tone.terminate()
            tone.waitUntilExit()
            throw error
        }
    }

    /// audio = on from snd-aloop's capture side.
    private static let loopbackSound = ["--audio", "on", "--audio-device", "hw:Loopback,1,0"]
    /// The sound tests record MJPEG: under emulation H.264 gets a few frames a second, or none
    /// for seconds when the host is busy; the sound does not depend on the picture's coding.
    static let soundTestEncoding = "mjpeg"


    /// FFmpeg playing a 1 kHz tone into snd-aloop at lensd's 48 kHz mono S16, until terminated.
    private func playTone() throws -> Process {
        let tone = Process()
        tone.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        tone.arguments = ["-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000",
                          "-ac", "1", "-f", "alsa", "hw:Loopback,0,0"]
        try tone.run()
        // ffmpeg takes seconds to start under emulation, and lensd may record before then: wait
        // until the loopback's playback side runs (no event to wait on: a liveness poll).
        let status = "/proc/asound/Loopback/pcm0p/sub0/status"
        let deadline = Date().addingTimeInterval(60)
        while !((try? String(contentsOfFile: status, encoding: .utf8))?.contains("RUNNING") ?? false) {
            guard tone.isRunning, Date() < deadline else {
                tone.terminate()
                throw TestToolError("the tone did not start playing into the loopback (ffmpeg \(tone.isRunning ? "still starting after 60 s" : "exited"))")
            }
            usleep(50_000)
        }
        return tone
    }

    /// The VM boots with root-only sound nodes; lensd runs as its own user.
    private static func setSoundAccess(_ mode: Int) throws {
        for node in try FileManager.default.contentsOfDirectory(atPath: "/dev/snd") {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: "/dev/snd/\(node)")
        }
    }

    /// MJPEG mode on vivid: each RGB frame is JPEG-coded.
    func testVividRecordsSignedMJPEG() throws {
        videoEncoding = "mjpeg"
        try startDaemon()
        try record(savedAs: "vivid-video-mjpeg.mp4")
    }

    /// MJPEG mode on the loopback: the camera's JPEGs pass through untouched (the host compares
    /// every sample with the fed JPEG).
    func testLoopbackMJPEGIsRecordedAsFed() throws {
        let (node, feeder) = try feedLoopback()
        defer { feeder.terminate(); feeder.waitUntilExit() }
        camera = node
        videoEncoding = "mjpeg"
        try startDaemon()
        try record(savedAs: "loopback-video.mp4")
        XCTAssertTrue(daemon.log.contains("\(node) streams 640x480 MJPG"), daemon.log)
    }

    /// The preview of vivid's RGB frames, scaled to 320×240, while a photo is taken and signed:
    /// frames keep coming before and after it. The host checks the colour bars in them.
    func testThePreviewOfVividRunsWhileAPhotoIsSigned() throws {
        try startDaemon()
        let c = try client()
        let s = try c.openSession()
        try c.call(s, "StartCaptureSession")
        let reader = try openPreview(c, s)
        let before = try reader.frames(3)
        let name = try XCTUnwrap(c.call(s, "BeginCapture").first?.stringValue)
        let during = try reader.frames(3)
        try c.waitForSignal("PhotoSigned", path: s, timeout: 60) { $0.arguments.first?.stringValue == name }
        let after = try reader.frames(3)
        let sequences = (before + during + after).map(\.sequence)
        XCTAssertEqual(sequences, sequences.sorted())
        try bringBack(Data((before + during + after).flatMap(\.jpeg)), as: "preview-vivid.mjpeg")
        let photo = try XCTUnwrap(c.call(s, "ReadResult", [.string(name)]).first?.bytesValue)
        XCTAssertEqual(try jpegDimensions(photo).width, 640, "the photo is the full frame, not the preview's")
        try bringBack(Data(photo), as: "vivid-during-preview.jpg", anchorFrom: c)

        // Another camera may stream another size: ChangeCamera ends the preview.
        try c.call(s, "ChangeCamera")
        _ = try reader.framesToEnd()
        XCTAssertTrue(reader.reachedEnd)
        XCTAssertEqual(try c.get(s, "PreviewActive").boolValue, false)
    }

    /// The preview of the loopback's MJPEG frames: decoded at half size by DCT scaling. The host
    /// compares the frames with the fed JPEG.
    func testThePreviewOfTheLoopbackDecodesItsMJPEG() throws {
        let (node, feeder) = try feedLoopback()
        defer { feeder.terminate(); feeder.waitUntilExit() }
        let (c, s) = try claimCamera(node)
        let frames = try openPreview(c, s).frames(4)
        try bringBack(Data(frames.flatMap(\.jpeg)), as: "preview-loopback.mjpeg")
        XCTAssertTrue(daemon.log.contains("\(node) streams 640x480 MJPG"), daemon.log)
    }

    /// A camera that streams only YUYV, as many webcams do without MJPEG: lensd asks for RGB24 and
    /// libv4l2 converts. The loopback plays a frame vivid itself made in YUYV, so the host finds
    /// vivid's colour bars in the preview and in the photo taken while it runs.
    func testThePreviewOfAYUYVCameraShowsWhatItSees() throws {
        let out = try XCTUnwrap(ProcessInfo.processInfo.environment["LENSD_VM_OUT"])
        let bars = out + "/vivid-bars.yuyv"
        try run(["v4l2-ctl", "-d", "/dev/video0", "--set-fmt-video=width=640,height=480,pixelformat=YUYV",
                 "--stream-mmap", "--stream-count=1", "--stream-to=" + bars])
        let (node, feeder) = try feedLoopback(format: "YUYV", files: [bars])
        defer { feeder.terminate(); feeder.waitUntilExit() }
        let (c, s) = try claimCamera(node)
        let reader = try openPreview(c, s)
        let before = try reader.frames(2)
        try capture(c, session: s, expecting: (640, 480), savedAs: "loopback-yuyv.jpg")
        let after = try reader.frames(2)
        try bringBack(Data((before + after).flatMap(\.jpeg)), as: "preview-loopback-yuyv.mjpeg")
        XCTAssertTrue(daemon.log.contains("\(node) streams 640x480 RGB3 at the driver's own rate, converted by libv4l2 from YUYV"), daemon.log)
    }

    /// lensd started on `node`, and a new client's session holding the camera.
    func claimCamera(_ node: String) throws -> (TestClient, String) {
        camera = node
        try startDaemon()
        let c = try client()
        let s = try c.openSession()
        try c.call(s, "StartCaptureSession")
        return (c, s)
    }

    /// A 320×240 preview of the session's camera.
    private func openPreview(_ c: TestClient, _ s: String) throws -> PreviewPipeReader {
        let reply = try c.call(s, "OpenPreview", [.vardict(["width": .uint32(320), "height": .uint32(240)])])
        XCTAssertEqual(reply.last?.vardictValue?["width"]?.uint32Value, 320)
        return PreviewPipeReader(fd: try XCTUnwrap(reply.first?.fdValue))
    }

    private func capture(_ c: TestClient, session: String? = nil, expecting size: (Int, Int), savedAs fileName: String) throws {
        let s = try session ?? c.openSession()
        try c.call(s, "StartCaptureSession")
        let name = try XCTUnwrap(c.call(s, "BeginCapture").first?.stringValue)
        try c.waitForSignal("PhotoSigned", path: s, timeout: 60) { $0.arguments.first?.stringValue == name }
        let photo = try XCTUnwrap(c.call(s, "ReadResult", [.string(name)]).first?.bytesValue)
        let dimensions = try jpegDimensions(photo)
        XCTAssertEqual([dimensions.width, dimensions.height], [size.0, size.1])
        try bringBack(Data(photo), as: fileName, anchorFrom: c)
    }

    /// Records about `seconds` of video through lensd and brings the signed file back.
    /// Returns VideoSigned's info.
    @discardableResult
    private func record(seconds: TimeInterval = 2, savedAs fileName: String) throws -> [String: BusValue] {
        let c = try client()
        let s = try c.openSession()
        try c.call(s, "StartCaptureSession")
        try c.set(s, "CameraMode", .string("video"))
        try c.call(s, "StartVideoCapture")
        try c.waitUntilRecorded(s, seconds: seconds)
        try c.call(s, "StopVideoCapture")
        try c.waitForSignal("VideoRecordingStopped", path: s)
        let (duration, info) = try bringBackVideo(c, session: s, as: fileName)
        // The frames' own timestamps make the duration: frames dropped under emulation lengthen
        // samples rather than shorten the recording, which counting frames at the nominal rate
        // (~9 of vivid's 25 fps under TCG: about a third) would do.
        XCTAssertGreaterThanOrEqual(duration, seconds - 0.05)
        return info
    }

    /// After a recording ended: waits for its thumbnail and VideoSigned, fetches the file and
    /// brings it back with what lensd announced about it in <fileName>.json — the duration of
    /// VideoThumbnailGenerated and the frames of VideoSigned (the host checks both against
    /// FFmpeg) and whether it has sound. Returns the announced duration and VideoSigned's info.
    @discardableResult
    private func bringBackVideo(_ c: TestClient, session s: String, as fileName: String) throws -> (Double, [String: BusValue]) {
        let thumbnail = try c.waitForSignal("VideoThumbnailGenerated", path: s)
        let signed = try c.waitForSignal("VideoSigned", path: s, timeout: 60)
        let name = try XCTUnwrap(signed.arguments.first?.stringValue)
        XCTAssertEqual(thumbnail.arguments.first?.stringValue, name)
        let duration = try XCTUnwrap(thumbnail.arguments.dropFirst(2).first?.doubleValue, "\(thumbnail.arguments)")
        let info = try XCTUnwrap(signed.arguments.dropFirst().first?.vardictValue, "\(signed.arguments)")
        let frames = try XCTUnwrap(info["frames"]?.uint32Value, "\(info)")
        XCTAssertEqual(info["mime"]?.stringValue, "video/mp4")

        let fd = try XCTUnwrap(c.call(s, "FetchResult", [.string(name)]).first?.fdValue)
        defer { close(fd) }
        let video = try XCTUnwrap(FileHandle(fileDescriptor: fd, closeOnDealloc: false).readToEnd())
        XCTAssertEqual(UInt64(video.count), info["size"]?.uint64Value)
        try bringBack(video, as: fileName, anchorFrom: c)
        let announced = try JSONSerialization.data(withJSONObject: ["duration": duration, "frames": Int(frames),
                                                                    "audio": info["audio"]?.boolValue ?? false])
        try bringBack(announced, as: fileName + ".json")
        return (duration, info)
    }

    /// Writes `data` to $LENSD_VM_OUT (when the host asked for it), and with `anchorFrom` the
    /// trust anchor that validates it as anchor-<fileName>.pem.
    func bringBack(_ data: Data, as fileName: String, anchorFrom c: TestClient? = nil) throws {
        guard let out = ProcessInfo.processInfo.environment["LENSD_VM_OUT"] else { return }
        try data.write(to: URL(fileURLWithPath: out).appendingPathComponent(fileName))
        if let c {
            let anchor = try XCTUnwrap(c.callManager("GetTrustAnchor").first?.stringValue)
            try anchor.write(toFile: out + "/anchor-\(fileName).pem", atomically: true, encoding: .utf8)
        }
    }

    /// Starts loopback-writer feeding `files` (by default the host's loopback-source.jpg) to the
    /// v4l2loopback node at 25 fps, until the caller terminates it; the node is then a camera
    /// lensd may open.
    /// `buffer` sizes the node's buffers for larger files sent later as a line on `control`.
    func feedLoopback(format: String = "MJPG", files: [String]? = nil, buffer: Int? = nil,
                      control: Pipe? = nil) throws -> (node: String, feeder: Process) {
        let environment = ProcessInfo.processInfo.environment
        let node = try XCTUnwrap(environment["LENSD_VM_LOOPBACK"]), out = try XCTUnwrap(environment["LENSD_VM_OUT"])
        let feeder = Process()
        feeder.executableURL = URL(fileURLWithPath: try XCTUnwrap(environment["VIVID_VM_LOOPBACK_WRITER"]))
        feeder.arguments = [node, "640x480", format] + (buffer.map { [String($0)] } ?? []) + ["--"]
            + (files ?? [out + "/loopback-source.jpg"])
        if let control { feeder.standardInput = control }
        try feeder.run()
        // With exclusive_caps=1 the node is a capture device only once the feeder has started streaming.
        try waitUntil("capture device at \(node)", while: feeder) {
            String(decoding: try runProcess(["v4l2-ctl", "-d", node, "--info"]).stdout, as: UTF8.self).contains("Video Capture")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: node)
        return (node, feeder)
    }

    /// Without udev the nodes are root-only; lensd runs as user lensd.
    private static func grantDeviceAccess() throws {
        for path in ["/dev/video0", "/dev/video1", "/dev/video2"] where FileManager.default.fileExists(atPath: path) {
            try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: path)
        }
    }

    private func reloadVivid() throws {
        try unloadVivid()
        try loadVivid()
    }

    /// rmmod waits for lensd to let go of the disconnected device, so it is retried briefly.
    private func unloadVivid() throws {
        let deadline = Date().addingTimeInterval(15)
        while try runProcess(["busybox", "rmmod", "vivid"]).status != 0 {
            guard Date() < deadline else { throw TestToolError("vivid stayed in use:\n\(daemon.log)") }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    private func loadVivid() throws {
        let environment = ProcessInfo.processInfo.environment
        let module = try XCTUnwrap(environment["VIVID_VM_KO"]), options = environment["VIVID_VM_OPTS"] ?? ""
        try run(["busybox", "insmod", module] + options.split(separator: " ").map(String.init))
        try Self.grantDeviceAccess()
    }

    func run(_ argv: [String]) throws {
        let result = try runProcess(argv)
        guard result.status == 0 else {
            throw TestToolError("\(argv.joined(separator: " ")) exited \(result.status): \(String(decoding: result.stderr, as: UTF8.self))")
        }
    }
}
