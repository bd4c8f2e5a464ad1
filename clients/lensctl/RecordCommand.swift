import C2PA
import FoundationEssentials
import Glibc
import LensClient
import LensCrypto

/// `lensctl record`: one signed video, recorded until a duration or a signal, written to a file.
enum RecordCommand: Command {
    static let name = "record"
    static let synopsis = "record [-o FILE]       record a signed video until --duration or Ctrl-C, write it"
    static let help = """
    usage: lensctl record [-o FILE|DIR|-] [--duration S] [--timeout S] [--camera back|front|PATH]
                          [--accuracy METERS] [--force] [--bus ADDRESS] [--json]

    Claims the camera in video mode — waiting in turn while another client holds it, saying
    who — waits until lensd allows capture (saying why it waits, as capture does), and records
    until S seconds have passed or lensctl gets
    SIGINT (Ctrl-C) or SIGTERM; a second signal ends lensctl at once (lensd still stores the
    video). On a terminal, stderr names the video when it starts and a live line shows length
    and size. Then it waits for lensd
    to store and sign the video, writes the exact bytes to FILE (default NAME.mp4), checks it
    with lensd's verifier against lensd's trust anchor, and prints name, length, size, path,
    and "signed, N frames, sound|silent, VERDICT" or "N frames, sound|silent, UNSIGNED: reason",
    then ", stopped at KEY" when a limit of lensd's configuration ended it.

    If lensd goes away mid-recording, lensctl says so with the video's name (exit 3): lensd
    recovers what was recorded when it starts again, and lensctl fetch NAME writes it.
    --camera applies to this video only: the camera that was current is current again after.

      -o FILE|DIR|-      where to write the video: a file (never overwritten without --force),
                         NAME.mp4 in a directory, or - for standard output (the result line
                         then goes to stderr)
      --duration S       stop after S seconds (default: at the first signal)
      --camera WHICH     back, front, external, or a device path (see lensctl devices)
      --accuracy METERS  accept location fixes up to this radius, 3...1500 (default: lensd's)
      --timeout S        give up waiting for the camera and for capture to be allowed after S
                         seconds, exit 5 (default 60)
      --force            overwrite FILE when it is a regular file (never a device, FIFO,
                         socket or symbolic link)

    exit: 0 signed · 1 unsigned (the file is still written) or the recording failed ·
          3 lensd went away · 5 the camera stayed busy or capture disabled past --timeout, or
          lensd did not store the video within 60 s of the stop
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv, options: ["-o", "--duration", "--timeout", "--accuracy", "--camera"], switches: ["--force"])
        _ = try args.positionals(0, "no arguments (the file is -o FILE)")
        let duration = try args.number("--duration", in: .leastNonzeroMagnitude...Double.greatestFiniteMagnitude)
        let accuracy = try args.number("--accuracy", in: 3...1500)
        let timeout = try args.number("--timeout", in: 0.001...86_400) ?? 60
        let force = args.has("--force")
        let target = try OutputFile.target(args.last("-o"), force: force)

        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        let camera = try Connection.camera(args, deadline: deadline, timeout: timeout)
        let inbox = EventInbox(camera)
        // Before the recording starts, so that no signal from now on ends lensctl mid-way.
        let stop = StopSignals()
        try Connection.client { () throws(LensClientError) in
            if let accuracy { _ = try camera.setMaximumLocationAccuracy(accuracy) }
            try camera.setCameraMode(.video)
        }
        try CameraWait.claim(camera, deadline: deadline, timeout: timeout)
        let settings = try Connection.client { () throws(LensClientError) in
            try CaptureSettings(camera: camera, select: args.last("--camera"), flash: nil, zoom: nil)
        }
        let stored = try settings.restoring {
            let gate = CaptureWaiting(camera: camera, inbox: inbox, deadline: deadline, timeout: timeout)
            try gate.whenEnabled { () throws(LensClientError) in try camera.startVideoCapture() }
            let name = try Connection.client { () throws(LensClientError) in try camera.videoRecordingProgress?.name }
            if let name, isatty(STDERR_FILENO) == 1 { Output.note("recording video \(name) (Ctrl-C stops it)") }
            // Capped so the conversion cannot overflow; nobody records for 30 years.
            let end = duration.map { ContinuousClock.now + .milliseconds(Int(min($0, 1e9) * 1000)) }
            let waiting = RecordingWaiting(camera: camera, inbox: inbox, name: name)
            return try waiting.stored(after: try waiting.record(until: end, stop: stop))
        }
        try? camera.stopCaptureSession()

        // Checked before it is published, on the file itself, so that standard output works too.
        let anchor = stored.signed ? try Connection.client { () throws(LensClientError) in try camera.trustAnchor() } : nil
        let (path, (sha256, report)) = try OutputFile.write(to: target, name: stored.name, fileExtension: "mp4",
                                                            overwrite: force) { file in
            let info = try Connection.client { () throws(LensClientError) in try camera.fetchResult(stored.name, into: file) }
            let sha256 = try SHA256Hex.of(file, path: "the video")
            guard sha256 == info.sha256, info.size == stored.info.size else {
                throw CommandFailure(.failed, "video \(stored.name) arrived damaged: sha256 \(sha256) of \(info.size) bytes, "
                                     + "lensd announced \(info.sha256) of \(stored.info.size)")
            }
            // As capture does: lensd's own verifier, trusting the anchor lensd hands out.
            let report = anchor.map { anchor in
                Result { try Verifier(trustAnchors: try Certificate.parsePEM(anchor)).verify(fileAt: "/proc/self/fd/\(file.rawValue)") }
            }
            return (sha256, report)
        }
        let verdict = try report.map { report in
            guard case .success(let verified) = report else { throw CommandFailure(.failed, "cannot verify the video: \(report)") }
            return verified.state
        }
        let result = RecordJSON(path: path, stored: stored, sha256: sha256, verdict: verdict?.rawValue)
        Output.result(result, text: result.text, json: args.json, standardOutputTaken: target.isStandardOutput)
        let shown = path == "-" ? "standard output" : path
        if let fault = stored.fault {
            Output.error("the recording failed: \(fault.message); \(shown) holds what was recorded")
            return .failed
        }
        guard stored.signed, let verdict else {
            Output.error("\(shown) is not signed: \(stored.info.reason ?? "lensd gave no reason")")
            return .failed
        }
        guard verdict == .trusted else {
            throw CommandFailure(.failed, "\(shown) does not verify as Trusted against lensd's own trust anchor")
        }
        return .ok
    }
}

/// What `record` prints: the video written, as lensd announced it.
struct RecordJSON: Encodable {
    struct Fault: Encodable {
        var error: String
        var message: String
    }

    var name: String
    var path: String
    var size: UInt64
    var sha256: String
    var mime: String
    var duration_s: Double
    var frames: UInt32
    var recovered: Bool
    /// The video has a sound track.
    var audio: Bool
    var signed: Bool
    /// lensd's verifier on the file written, trusting lensd's anchor; only when signed.
    var verdict: String?
    /// Why lensd could not sign it; only when unsigned.
    var reason: String?
    /// The fault that ended the recording early, if one did.
    var recording_error: Fault?
    /// The configuration key of the limit that ended it, if one did.
    var limit: String?

    init(path: String, stored: RecordingWaiting.Stored, sha256: String, verdict: String?) {
        name = stored.name
        self.path = path
        size = stored.info.size
        self.sha256 = sha256
        mime = stored.info.mime
        duration_s = Seconds.milliseconds(stored.info.duration)
        frames = stored.info.frames
        recovered = stored.info.recovered
        audio = stored.info.audio
        signed = stored.signed
        self.verdict = stored.signed ? verdict : nil
        reason = stored.signed ? nil : stored.info.reason ?? ""
        recording_error = stored.fault.map { Fault(error: $0.name, message: $0.message) }
        limit = stored.info.limit
    }

    /// One line: "NAME  12.400 s  3104228 bytes  /path/NAME.mp4  signed, 372 frames, sound, Trusted".
    var text: String {
        let content = "\(frames) frames, " + (audio ? "sound" : "silent")
        let state = signed ? "signed, \(content), \(verdict ?? "")" : "\(content), UNSIGNED: \(reason ?? "")"
        let stop = limit.map { ", stopped at \($0)" } ?? ""
        return "\(name)  \(Seconds.text(duration_s)) s  \(size) bytes  \(path)  \(state)\(stop)"
    }
}
