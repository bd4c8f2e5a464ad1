import FoundationEssentials
import LensClient

/// `lensctl face-capture`: a face auto-capture, its selfie written and verified as `capture` does.
enum FaceCaptureCommand: Command {
    static let name = "face-capture"
    static let synopsis = "face-capture [-o FILE] a signed selfie: lensd picks the best frame"
    static let help = """
    usage: lensctl face-capture [-o FILE|DIR|-] [--timeout S] [--force] [--json] [--bus ADDRESS]
                                [--min-valid-frames N] [--candidate-selection-ms MS]
                                [--detection-rectangle L,T,R,B] [--camera-facing front|back]
                                [--min-face-size X] [--max-face-size X] [--max-center-offset X]
                                [--min-brightness X] [--max-brightness X] [--min-sharpness X]

    Claims the camera (waiting in turn), waits until lensd allows capture, and starts lensd's face
    auto-capture: on a terminal one line shows what to do ("Move closer", in the language
    LANGUAGE/LANG ask for; elsewhere, a line each time it changes on stderr); after enough good
    frames in a row lensd picks the best frame of a
    short window and signs exactly that frame. The selfie is written and verified as capture
    does. The camera lensd moves to for --camera-facing is put back as it was found. With --json every detection is a JSON line (as lensctl watch --json prints it), the
    last line the result as capture --json prints it.

      -o FILE|DIR|-      where to write the selfie (as capture; default NAME.jpg)
      --timeout S        give up after S seconds, exit 5 (default 60)
      --force            overwrite FILE when it is a regular file
      --min-valid-frames N, --candidate-selection-ms MS, --detection-rectangle L,T,R,B,
      --camera-facing front|back (default front, when the device has one), --min-face-size X,
      --max-face-size X, --max-center-offset X, --min-brightness X, --max-brightness X,
      --min-sharpness X
                         StartFaceAutoCapture's options (dbus/org.lensd.Lens1.xml); lensd names
                         a value out of range
    """

    private nonisolated(unsafe) static let numbers: [(flag: String, key: WritableKeyPath<LensFaceAutoCaptureConfiguration, Double?>)] = [
        ("--min-face-size", \.minFaceSize), ("--max-face-size", \.maxFaceSize), ("--max-center-offset", \.maxCenterOffset),
        ("--min-brightness", \.minBrightness), ("--max-brightness", \.maxBrightness), ("--min-sharpness", \.minSharpness),
    ]

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv, options: Set(["-o", "--timeout", "--min-valid-frames", "--candidate-selection-ms",
                                                     "--detection-rectangle", "--camera-facing"] + numbers.map(\.flag)),
                                 switches: ["--force"])
        _ = try args.positionals(0, "no arguments (the file is -o FILE)")
        let configuration = try self.configuration(args)
        let timeout = try args.number("--timeout", in: 0.001...86_400) ?? 60
        let force = args.has("--force")
        let target = try OutputFile.target(args.last("-o"), force: force)

        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        let camera = try Connection.camera(args, deadline: deadline, timeout: timeout)
        let inbox = EventInbox(camera)
        try CameraWait.claim(camera, deadline: deadline, timeout: timeout)
        // lensd's face auto-capture moves to its camera_facing: the camera found is put back, as `capture --camera` does.
        let settings = try Connection.client { () throws(LensClientError) in
            try CaptureSettings(camera: camera, select: nil, flash: nil, zoom: nil, keepingCamera: true)
        }
        let waiting = CaptureWaiting(camera: camera, inbox: inbox, deadline: deadline, timeout: timeout)
        let (name, info) = try settings.restoring {
            try waiting.whenEnabled { () throws(LensClientError) in try camera.startFaceAutoCapture(configuration: configuration) }
            return try selfie(camera, inbox, deadline: deadline, timeout: timeout, json: args.json)
        }
        // The camera's part is done: the next client in line need not wait for the fetch and the check.
        try? camera.stopCaptureSession()
        let result = try CaptureCommand.deliver(name, info: info, thumbnail: nil, from: camera, to: target, thumbnailTo: nil,
                                                overwrite: force)
        if args.json { Output.jsonLine(result) } else {
            Output.result(result, text: result.text, json: false, standardOutputTaken: target.isStandardOutput)
        }
        return try CaptureCommand.trusted(result)
    }

    /// Shows the instructions until lensd has chosen and signed the selfie; its name and info.
    private static func selfie(_ camera: LensCamera, _ inbox: EventInbox, deadline: ContinuousClock.Instant, timeout: Double,
                               json: Bool) throws -> (String, LensResultInfo) {
        let line = json ? nil : LiveLine.changes()
        let localization = Localization.current()
        var chosen: String?
        while true {
            guard let event = inbox.next(before: deadline) else {
                line?.finish()
                throw CommandFailure(.timeout, "gave up after \(Seconds.plain(timeout)) s: no selfie chosen (\((try? camera.faceAutoCaptureState) ?? "?"))")
            }
            if json, case .faceDetected = event { Output.jsonLine(EventJSON(event, time: Date())) }
            switch event {
            case .faceDetected(let detection): line?.show(detection.instruction.localizedText(localization))
            case .candidateSelectionStarted: if json { Output.jsonLine(EventJSON(event, time: Date())) }
            case .faceAutoCaptureFinished(let name, _):
                line?.finish()
                if json { Output.jsonLine(EventJSON(event, time: Date())) }
                chosen = name
            case .photoSigned(let name, let info) where name == chosen: return (name, info)
            case .failed(let error): throw CommandFailure(.failed, "face capture failed: \(error.message)")
            case .disconnected(let error): throw CommandFailure(error)
            default: continue
            }
        }
    }

    private static func configuration(_ args: Arguments) throws -> LensFaceAutoCaptureConfiguration {
        var c = LensFaceAutoCaptureConfiguration()
        c.minValidFrames = try args.number("--min-valid-frames", in: 0...Double(UInt32.max)).map { UInt32($0) }
        c.candidateSelectionMillis = try args.number("--candidate-selection-ms", in: 0...Double(UInt32.max)).map { UInt32($0) }
        if let text = args.last("--detection-rectangle") {
            let edges = text.split(separator: ",").compactMap { Double($0) }
            guard edges.count == 4 else { throw CommandFailure(.usage, "--detection-rectangle takes L,T,R,B (four numbers), not \(text)") }
            c.detectionRectangle = (edges[0], edges[1], edges[2], edges[3])
        }
        c.cameraFacing = try args.choice("--camera-facing", LensCameraPosition.self)
        for (flag, key) in numbers { c[keyPath: key] = try args.number(flag, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) }
        return c
    }
}
