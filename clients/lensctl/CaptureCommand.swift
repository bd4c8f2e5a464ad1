import C2PA
import FoundationEssentials
import LensSystem
import LensClient
import LensCrypto

/// `lensctl capture`: one signed photo, written to a file, verified.
enum CaptureCommand: Command {
    static let name = "capture"
    static let synopsis = "capture [-o FILE]      take a signed photo, write it, verify it"
    static let help = """
    usage: lensctl capture [-o FILE|DIR|-] [--camera back|front|PATH] [--flash off|on|auto] [--zoom X]
                           [--accuracy METERS] [--thumbnail FILE|DIR] [--timeout S] [--force]
                           [--bus ADDRESS] [--json]

    Claims the camera — waiting in turn while another client holds it, saying who — waits
    until lensd allows capture (saying why it waits, e.g. "waiting for location: 850 m >
    50 m"), takes a photo, waits for it to be signed, writes
    the exact signed bytes to FILE (default NAME.jpg), and verifies the file against lensd's
    trust anchor. Prints name, path, size, location, time (UTC) and verdict (on stderr with -o -).

    --camera, --flash and --zoom apply to this photo only: lensctl puts the camera, its flash
    and its zoom back as they were before it releases the camera (lasting changes: lensctl set).
    A --camera that lensd does not have leaves the current camera current.

      -o FILE|DIR|-      where to write the photo: a file (never overwritten without --force),
                         NAME.jpg in a directory, or - for standard output
      --camera WHICH     back, front, external, or a device path (see lensctl devices)
      --flash MODE       off, on or auto
      --zoom X           zoom factor, 1 or more (clamped to the camera's maximum)
      --accuracy METERS  accept location fixes up to this radius, 3...1500 (default: lensd's)
      --thumbnail FILE|DIR
                         also write the small JPEG lensd makes right after the frame is taken
                         (InitialCaptureFinished; unsigned): a file, or NAME.thumbnail.jpg in a
                         directory
      --timeout S        give up after S seconds, session and camera waits included, exit 5 (default 60)
      --force            overwrite FILE when it is a regular file (never a device, FIFO,
                         socket or symbolic link)
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv, options: ["-o", "--camera", "--flash", "--zoom", "--accuracy", "--timeout", "--thumbnail"],
                                 switches: ["--force"])
        _ = try args.positionals(0, "no arguments (the file is -o FILE)")
        let flash = try args.choice("--flash", LensFlashMode.self)
        let zoom = try args.number("--zoom", in: 1...Double.greatestFiniteMagnitude)
        let accuracy = try args.number("--accuracy", in: 3...1500)
        let timeout = try args.number("--timeout", in: 0.001...86_400) ?? 60
        let force = args.has("--force")
        let target = try OutputFile.target(args.last("-o"), force: force)
        let thumbnailTarget = try args.last("--thumbnail").map { option in
            guard option != "-" else { throw CommandFailure(.usage, "--thumbnail takes a FILE or DIR, not -") }
            return try OutputFile.target(option, force: force)
        }

        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        let camera = try Connection.camera(args, deadline: deadline, timeout: timeout)
        let inbox = EventInbox(camera)
        if let accuracy { _ = try Connection.client { () throws(LensClientError) in try camera.setMaximumLocationAccuracy(accuracy) } }
        try CameraWait.claim(camera, deadline: deadline, timeout: timeout)
        let settings = try Connection.client { () throws(LensClientError) in
            try CaptureSettings(camera: camera, select: args.last("--camera"), flash: flash, zoom: zoom)
        }
        let waiting = CaptureWaiting(camera: camera, inbox: inbox, deadline: deadline, timeout: timeout)
        let (name, info, thumbnail) = try settings.restoring {
            let name = try waiting.whenEnabled { () throws(LensClientError) in try camera.beginCapture() }
            let (info, thumbnail) = try waiting.signedPhoto(name)
            return (name, info, thumbnail)
        }
        // The camera's part is done: the next client in line need not wait for the fetch and the check.
        try? camera.stopCaptureSession()
        let result = try deliver(name, info: info, thumbnail: thumbnail, from: camera, to: target, thumbnailTo: thumbnailTarget,
                                 overwrite: force)
        Output.result(result, text: result.text, json: args.json, standardOutputTaken: target.isStandardOutput)
        return try trusted(result)
    }

    /// Fetches the signed photo, checks it is what lensd announced, writes it (and the thumbnail)
    /// and verifies it against lensd's own anchor (`capture`, `face-capture`).
    static func deliver(_ name: String, info: LensResultInfo, thumbnail: Data?, from camera: LensCamera, to target: OutputFile.Target,
                        thumbnailTo thumbnailTarget: OutputFile.Target?, overwrite force: Bool) throws -> CaptureJSON {
        let (bytes, anchor) = try Connection.client { () throws(LensClientError) in
            (try camera.fetchResult(name), try camera.trustAnchor())
        }
        let sha256 = SHA256Hex.of(bytes)
        guard sha256 == info.sha256, UInt64(bytes.count) == info.size else {
            throw CommandFailure(.failed, "photo \(name) arrived damaged: sha256 \(sha256), lensd announced \(info.sha256)")
        }
        let path = try OutputFile.write(bytes, to: target, name: name, fileExtension: "jpg", overwrite: force)
        let thumbnailPath = try thumbnailTarget.map { thumbnailTarget in
            guard let thumbnail else { throw CommandFailure(.failed, "lensd sent no thumbnail for photo \(name)") }
            return try OutputFile.write(thumbnail, to: thumbnailTarget, name: name, fileExtension: "thumbnail.jpg", overwrite: force)
        }
        let report = try verify(bytes, anchorPEM: anchor)
        return CaptureJSON(name: name, path: path, thumbnail: thumbnailPath, info: info, report: report)
    }

    /// Exit 1 unless the photo verified as Trusted.
    static func trusted(_ result: CaptureJSON) throws -> ExitCode {
        guard result.verdict == ValidationState.trusted.rawValue else {
            throw CommandFailure(.failed, "\(result.path) does not verify as Trusted against lensd's own trust anchor")
        }
        return .ok
    }

    /// lensd's own C2PA verifier, trusting the anchor lensd hands out.
    private static func verify(_ bytes: Data, anchorPEM: String) throws -> VerificationReport {
        do {
            return try Verifier(trustAnchors: try Certificate.parsePEM(anchorPEM)).verify(jpeg: Array(bytes))
        } catch {
            throw CommandFailure(.failed, "cannot verify the photo: \(error)")
        }
    }
}

struct CaptureJSON: Encodable {
    var name: String
    var path: String
    /// Where --thumbnail wrote the thumbnail.
    var thumbnail: String?
    var size: UInt64
    var sha256: String
    var mime: String
    var location: VerifyJSON.Location?
    var when: String?
    var verdict: String
    var signer: String?
    /// Validation failure codes; empty for a Trusted photo.
    var failures: [String]
    /// What lensd says: a TSA time-stamped the signature (lensd checked it against its tsa-trust-anchor).
    var timestamped: Bool?
    var timestamp_time: Date?
    /// Without a time-stamp the photo turns Invalid after this (the signing certificate's expiry).
    var cert_not_after: Date?

    init(name: String, path: String, thumbnail: String?, info: LensResultInfo, report: VerificationReport) {
        self.name = name
        self.path = path
        self.thumbnail = thumbnail
        size = info.size
        sha256 = info.sha256
        mime = info.mime
        location = report.location.map { VerifyJSON.Location(latitude: $0.latitude, longitude: $0.longitude, accuracy_m: $0.accuracy) }
        when = report.captureTime.map(Output.utc)
        verdict = report.state.rawValue
        signer = report.signer?.subject.oneLine
        failures = report.failures.map(\.code)
        (timestamped, timestamp_time) = (info.timestamped, info.timestampTime)
        cert_not_after = report.signer?.notAfter
    }

    var text: String {
        let place = location.map { location in
            String(cFormat: "%.6f, %.6f", location.latitude, location.longitude)
                + (location.accuracy_m.map { String(cFormat: " ± %.0f m", $0) } ?? "")
        } ?? "none recorded"
        var lines = ["name:     \(name)", "path:     \(path)"]
        if let thumbnail { lines.append("thumbnail: \(thumbnail)") }
        lines += [
            "size:     \(size) bytes (sha256 \(sha256))",
            "location: \(place)",
            "when:     \(when ?? "not recorded")",
            "verdict:  \(verdict)\(signer.map { " — signed by \($0)" } ?? "")",
        ]
        if let timestamp_time, timestamped == true {
            lines.append("time:     time-stamped \(Output.iso8601(timestamp_time)) (by lensd's TSA)")
        } else if let cert_not_after {
            lines.append("time:     not time-stamped: turns Invalid after \(Output.iso8601(cert_not_after))")
        }
        return lines.joined(separator: "\n")
    }
}
