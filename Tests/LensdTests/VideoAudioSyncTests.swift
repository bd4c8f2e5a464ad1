import Foundation
import LensBus
import LensTestSupport
import XCTest

/// Sound on this host, from a real ALSA capture device without a sound card: alsa-lib's `file`
/// plugin reading a FIFO that the test writes tone bursts into in real time (FIFOSoundDevice says
/// how it was found to pace and stamp). Checked with FFmpeg: the Opus and video streams start and
/// end within 40 ms of each other, and each burst lies where the writer's clock puts it relative
/// to the first (within 40 ms: the sound never shifts) — across a stall of the device, after it
/// fails mid-recording, and in a video recovered after lensd was killed. The measured figures are
/// printed ("sync: …").
final class VideoAudioSyncTests: LensdTestCase {
    private var device: FIFOSoundDevice!

    override var daemonArguments: [String] {
        super.daemonArguments + ["--synthetic-size", "320x240", "--audio", "on", "--audio-device", device.pcm]
    }
    override var daemonEnvironment: [String: String] { device.environment }

    /// The device writes before lensd starts: lensd probes it then, and opening it waits for a writer.
    override func prepare() throws {
        device = try FIFOSoundDevice(directory: tmp.url)
        device.start()
    }

    override func tearDown() {
        super.tearDown()
        device?.stop()
        device = nil
    }

    /// A minute of sound and picture (the recording runs for 60 s of its own frames).
    func testSixtySecondsOfToneStayInSyncWithThePicture() throws {
        let (video, info, _, origin) = try record(seconds: 60)
        XCTAssertEqual(info["audio"]?.boolValue, true, "\(info)")
        let bursts = try assertInSync(video, "60 s", origin: origin)
        XCTAssertGreaterThanOrEqual(bursts.count, 55, "a burst a second: \(bursts)")
        print("sync: the writer wrote \(device.counts.written) chunks of 20 ms and dropped \(device.counts.dropped) (no reader, a full pipe)")
        XCTAssertFalse(daemon.log.contains("silence fills the gap"), daemon.log)
    }

    /// The device stalls for a second mid-recording (its writer pauses; the sound of that second
    /// is lost, as in an xrun): lensd logs it, fills it with silence, and the sound after it is
    /// where it belongs.
    func testAStallOfTheDeviceIsLoggedAndFilledWithSilenceWithoutShiftingSync() throws {
        var stall: (from: Double, to: Double)?
        let (video, _, _, origin) = try record(seconds: 12, at: 4) { stall = self.device.pause(for: 1) }
        let bursts = try assertInSync(video, "stall", origin: origin)
        let stalled = try XCTUnwrap(stall)
        // The burst written in the stalled second is missing: the stall is in the recording.
        let skips = zip(bursts, bursts.dropFirst()).filter { ($1.index - $0.index + 10) % 10 == 2 }
        XCTAssertEqual(skips.count, 1, "one burst lost to the stall \(stalled): \(bursts)")
        let gap = try XCTUnwrap(daemon.log.firstMatch(of: /delivered nothing for ([0-9.]+) s \(from ([0-9.]+) s of the recording\); silence fills the gap/),
                                daemon.log)
        print("sync: stall of the writer \(stalled) s on its clock; lensd logged a gap of \(gap.1) s from \(gap.2) s")
        XCTAssertEqual(Double(gap.1) ?? 0, 1, accuracy: 0.05, daemon.log)
        XCTAssertTrue(daemon.log.contains("s of silence stand for sound the device did not deliver"), daemon.log)
    }

    /// The device stalls as the recording stops, its read waiting in the plugin: the stop does
    /// not wait for the device (the audio thread is left to end on its own) and silence
    /// completes the track.
    func testAStallAsTheRecordingStopsDoesNotHoldTheStop() throws {
        let c = try client()
        let (s, origin) = try startRecording(c)
        try c.waitUntilRecorded(s, seconds: 3)
        let stall = device.pause(for: 10)
        while !device.isStalled { try c.drain(for: 0.02) }
        let stopping = Date()
        try c.call(s, "StopVideoCapture")
        let signed = try c.waitForSignal("VideoSigned", path: s, timeout: 60)
        let took = Date().timeIntervalSince(stopping)
        XCTAssertTrue(device.isStalled, "VideoSigned came after the stall \(stall) ended")
        print(String(format: "sync: StopVideoCapture to VideoSigned during a stall of the device: %.2f s", took))
        XCTAssertTrue(daemon.log.contains("did not stop within 0.5 s (a read waits on the device)"), daemon.log)
        let video = try fetch(c, s, try XCTUnwrap(signed.arguments.first?.stringValue))
        let bursts = try assertInSync(video, "stall at the stop", origin: origin)
        let stalledFrom = device.origin + stall.from - origin  // on the recording's clock
        XCTAssertLessThan(try XCTUnwrap(bursts.last).time, stalledFrom, "no sound after the stall began: \(bursts)")
    }

    /// The device fails mid-recording (its writer goes away: the plugin then hands out stale
    /// sound faster than real time, which lensd takes for a failure): the picture goes on, the
    /// rest of the track is silence, the video is signed, and the log says why the sound stopped.
    func testADeviceFailingMidRecordingEndsTheSoundButNotThePicture() throws {
        let (video, info, signals, origin) = try record(seconds: 8, at: 3) { self.device.fail() }
        XCTAssertFalse(signals.contains { $0.member == "VideoRecordingFailed" }, "\(signals.map(\.member))")
        print("sync: after the device failed, VideoSigned says audio=\(info["audio"]?.boolValue.map(String.init) ?? "nil")")
        XCTAssertEqual(info["audio"]?.boolValue, true, "the track is there, silent after the failure: \(info)")
        XCTAssertTrue(daemon.log.contains("delivers sound faster than real time"), daemon.log)
        XCTAssertTrue(daemon.log.contains("the recording goes on without sound"), daemon.log)
        XCTAssertGreaterThanOrEqual(try FFprobeReport.read(video).duration, 7.9)
        let bursts = try assertInSync(video, "failure", origin: origin)
        let last = try XCTUnwrap(bursts.last)
        XCTAssertLessThan(last.time, 4.5, "no sound after the failure at ~3 s: \(bursts)")
    }

    /// lensd is killed with SIGKILL mid-recording, once the recording holds 3 s and its journal
    /// a complete fragment with sound; restarted, it recovers the video: published, trusted, both
    /// tracks there and ending within 40 ms plus one fragment (1 s) of each other.
    func testAVideoWithSoundCutBySIGKILLIsRecoveredWithBothTracksInSync() throws {
        let c = try client()
        let (s, origin) = try startRecording(c)
        try c.waitUntilRecorded(s, seconds: 3)
        let journal = try waitForJournalFragments(1, runs: 2)
        daemon.stop(signal: SIGKILL)
        let name = String(journal.lastPathComponent.dropFirst(".recording-".count).prefix(36))

        try restartDaemon()
        let deadline = Date().addingTimeInterval(60)
        var listed: [String: Any]?
        while listed == nil || listed?["signed"] as? Bool != true, Date() < deadline {
            let out = try lensctl.expect(0, ["results", "--json"]).stdout
            let all = (try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])?["results"] as? [[String: Any]]
            listed = all?.first { $0["name"] as? String == name }
            if listed?["signed"] as? Bool != true { try c.drain(for: 0.2) }
        }
        let entry = try XCTUnwrap(listed, "the recovered video is not listed:\n\(daemon.log)")
        XCTAssertEqual(entry["recovered"] as? Bool, true, "\(entry)")
        XCTAssertEqual(entry["signed"] as? Bool, true, "\(entry)")
        let video = tmp.file("recovered.mp4")
        try lensctl.expect(0, ["fetch", name, "-o", video.path])
        try assertInSync(video, "recovered", origin: origin, endTolerance: 0.04 + 1)
    }

    // MARK: - Helpers

    /// Checks `video` with FFmpeg and c2pa-python: trusted, decodes cleanly, has an Opus stream
    /// starting within 40 ms of the video's and ending within `endTolerance` of it, and bursts
    /// within 40 ms of where the writer's clock puts them, relative to the first burst and to the
    /// recording's `origin` (CLOCK_MONOTONIC seconds: time 0 of both tracks, the first frame's).
    /// Prints the figures; returns the bursts.
    @discardableResult
    private func assertInSync(_ video: URL, _ label: String, origin: Double, endTolerance: Double = 0.04,
                              file: StaticString = #filePath, line: UInt = #line) throws -> [(time: Double, index: Int)] {
        try ReferenceValidator.assertTrusted(video, anchors: [try client().trustAnchorFile(in: tmp)])
        XCTAssertEqual(try FFprobeReport.read(video).decodeErrors, "", file: file, line: line)
        let streams = try FFprobeReport.streamTimes(video)
        let picture = try XCTUnwrap(streams["video"], "\(streams)", file: file, line: line)
        let sound = try XCTUnwrap(streams["audio"], "\(streams)", file: file, line: line)
        XCTAssertEqual(sound.codec, "opus", file: file, line: line)
        let audio = try XCTUnwrap(AudioProbe.read(video), file: file, line: line)
        XCTAssertEqual(audio.decodeErrors, "", file: file, line: line)
        let bursts = audio.bursts()
        let drift = AudioProbe.burstDrift(bursts)
        let worst = drift.map(abs).max() ?? .infinity
        let startOffset = sound.start - picture.start, endOffset = sound.end - picture.end
        let figures = String(format: "sync (%@): video %.3f–%.3f s, Opus %.3f–%.3f s: start offset %+.1f ms, end offset %+.1f ms; "
                             + "%d bursts, the furthest %.1f ms from the writer's clock",
                             label as NSString, picture.start, picture.end, sound.start, sound.end, startOffset * 1000,
                             endOffset * 1000, bursts.count, worst * 1000)
        print(figures)
        XCTAssertLessThanOrEqual(abs(startOffset), 0.04, figures, file: file, line: line)
        XCTAssertLessThanOrEqual(abs(endOffset), endTolerance, figures, file: file, line: line)
        XCTAssertGreaterThanOrEqual(bursts.count, 2, figures, file: file, line: line)
        XCTAssertLessThanOrEqual(worst, 0.04, "\(figures)\n\(zip(bursts, drift).map { "\($0.0) \($0.1)" })", file: file, line: line)
        // The picture's time t is the first frame's time + t; the sound's must be the same
        // clock: burst k (the writer's second k) belongs at writer origin + k − origin.
        let offsets = bursts.map { burst -> Double in
            let second = (burst.time + origin - device.origin).rounded()
            XCTAssertEqual(Int(second) % 10, burst.index, "burst at \(burst.time) s: \(bursts)", file: file, line: line)
            return burst.time - (device.origin + second - origin)
        }
        let placement = String(format: "sync (%@): the sound against the picture's clock: first burst %+.1f ms, last %+.1f ms, "
                           + "furthest %.1f ms (lensd's stated origin as time 0)", label as NSString, (offsets.first ?? .nan) * 1000,
                           (offsets.last ?? .nan) * 1000, (offsets.map(abs).max() ?? .nan) * 1000)
        print(placement)
        XCTAssertLessThanOrEqual(offsets.map(abs).max() ?? .infinity, 0.04, placement, file: file, line: line)
        return bursts
    }

    /// A session recording video (the camera in video mode), once the recording holds 0.5 s,
    /// and the recording's origin (see recordingOrigin).
    private func startRecording(_ c: TestClient) throws -> (session: String, origin: Double) {
        let s = try c.openSession()
        try c.call(s, "StartCaptureSession")
        try c.set(s, "CameraMode", .string("video"))
        try c.call(s, "StartVideoCapture")
        try c.waitUntilRecorded(s, seconds: 0.5)
        return (s, try recordingOrigin(of: waitForJournal()))
    }

    /// Records `seconds` (calling `midway` once the recording holds `at` s), stops, and returns
    /// the fetched video, VideoSigned's info, the session's signals and the recording's origin.
    private func record(seconds: Double, at mark: Double? = nil, midway: () throws -> Void = {}) throws
        -> (URL, [String: BusValue], [SignalMessage], Double) {
        let c = try client()
        let (s, origin) = try startRecording(c)
        if let mark {
            try c.waitUntilRecorded(s, seconds: mark)
            try midway()
        }
        try c.waitUntilRecorded(s, seconds: seconds)
        try c.call(s, "StopVideoCapture")
        let signed = try c.waitForSignal("VideoSigned", path: s, timeout: 120)
        let info = try XCTUnwrap(signed.arguments.dropFirst().first?.vardictValue, "\(signed.arguments)")
        let video = try fetch(c, s, try XCTUnwrap(signed.arguments.first?.stringValue))
        return (video, info, c.signals + [signed], origin)
    }

    /// The video `name` (FetchResult), written into the test's directory.
    private func fetch(_ c: TestClient, _ s: String, _ name: String) throws -> URL {
        let fd = try XCTUnwrap(c.call(s, "FetchResult", [.string(name)]).first?.fdValue)
        defer { close(fd) }
        let video = tmp.file("\(name).mp4")
        try XCTUnwrap(FileHandle(fileDescriptor: fd, closeOnDealloc: false).readToEnd()).write(to: video)
        return video
    }

    /// Time 0 of the recording on CLOCK_MONOTONIC, as lensd's debug log states it for the
    /// recording whose journal this is (a synthetic frame's own timestamp is on another clock, so
    /// lensd takes the moment it opens the file). Checked against what the test sees itself, the
    /// journal's creation: within half a second. That creation time was the origin here before,
    /// and on a loaded machine it came 45 ms before lensd's.
    private func recordingOrigin(of journal: URL) throws -> Double {
        let name = journal.lastPathComponent.dropFirst(".recording-".count).prefix(36)
        let prefix = "video \(name): time 0 is CLOCK_MONOTONIC "
        let line = try XCTUnwrap(daemon.log.split(separator: "\n").first { $0.contains(prefix) }, "no origin in the log:\n\(daemon.log)")
        let figure = line[line.range(of: prefix)!.upperBound...].prefix { $0.isNumber || $0 == "." }
        let origin = try XCTUnwrap(Double(figure), String(line))
        let birth = try journalBirth(journal)
        XCTAssertLessThan(abs(origin - birth), 0.5, "time 0 \(origin) is far from the journal's creation \(birth)")
        return origin
    }

    /// When `journal` was created, on CLOCK_MONOTONIC, to the file system's clock granularity.
    private func journalBirth(_ journal: URL) throws -> Double {
        let r = try runProcess(["stat", "--format=%.9W", journal.path])
        let realtime = Double(String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        guard r.status == 0, realtime > 0 else { throw TestToolError("no birth time for \(journal.path): \(String(decoding: r.stderr, as: UTF8.self))") }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return realtime - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9) + FIFOSoundDevice.monotonicNow()
    }
}
