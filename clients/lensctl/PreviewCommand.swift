import FoundationEssentials
import Glibc
import LensClient
import LensSystem

/// `lensctl preview`: the live preview as an MJPEG stream, to stdout (for a player) or a file.
enum PreviewCommand: Command {
    static let name = "preview"
    static let synopsis = "preview [-o FILE|-]     stream the live preview (MJPEG, unsigned) to a player or a file"
    static let help = """
    usage: lensctl preview [--size WxH] [--fps N] [--quality Q] [-o FILE|-] [--frames N | --duration S]
                           [--force] [--bus ADDRESS] [--json]

    Claims the camera and writes its live preview: baseline JPEG frames back to back, which
    players read as MJPEG — lensctl preview | ffplay -f mjpeg -i -
    It runs until N frames, S seconds, or SIGINT (Ctrl-C) / SIGTERM, or until the reader of
    stdout goes away. Preview frames are NOT signed; lensctl capture takes a signed photo.
    stdout must not be a terminal. With -o FILE the file appears whole at the end (one frame
    is a plain JPEG: --frames 1 -o frame.jpg), and lensctl says how many frames it holds.

      --size WxH     a box the picture is fitted into, aspect kept (default 640x480)
      --fps N        at most N frames a second (default the camera's rate, at most 30)
      --quality Q    JPEG quality 1...100 (default 75)
      -o FILE|-      where to write the stream (default -, stdout); never overwritten without --force
      --frames N     stop after N frames
      --duration S   stop after S seconds
      --force        overwrite FILE
      --json         with -o FILE: a summary object on stdout

    exit: 0 done · 1 lensd ended the preview first (the file, if any, holds what came) or it
          failed · 2 usage (also: stdout is a terminal) · 5 no frame within 10 s
    """

    /// A camera that sends nothing for this long has stalled.
    static let frameTimeout: Duration = .seconds(10)

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv, options: ["--size", "--fps", "--quality", "-o", "--frames", "--duration"],
                                 switches: ["--force"])
        _ = try args.positionals(0, "no arguments (the file is -o FILE)")
        let request = try PreviewRequest(args)
        let option = args.last("-o") ?? "-"
        let force = args.has("--force")
        if option == "-" {
            guard isatty(STDOUT_FILENO) == 0 else {
                throw CommandFailure(.usage, "stdout is a terminal; pipe the stream into a player: lensctl preview | ffplay -f mjpeg -i -")
            }
            guard !args.json else { throw CommandFailure(.usage, "--json needs -o FILE (stdout carries the stream)") }
        }
        let target = try OutputFile.target(option, force: force)

        let camera = try Connection.camera(args)
        let stop = StopSignals()
        // A reader of stdout that goes away is the end of the stream, not a crash.
        signal(SIGPIPE, SIG_IGN)
        let preview = try Connection.client { () throws(LensClientError) in
            try camera.startCaptureSession()
            return try camera.openPreview(size: request.size, fps: request.fps, quality: request.quality)
        }
        let streamer = PreviewStreamer(preview: preview, request: request, stop: stop)
        guard !target.isStandardOutput else {
            let written = try FileDescriptor.borrowing(STDOUT_FILENO) { try streamer.copy(to: $0) }
            return written.complete ? .ok : .failed
        }
        // In a directory: preview.jpg for one frame, preview.mjpeg for a stream.
        let (path, written) = try OutputFile.write(to: target, name: "preview", fileExtension: request.frames == 1 ? "jpg" : "mjpeg",
                                                   overwrite: force) { try streamer.copy(to: $0) }
        let summary = PreviewJSON(path: path, frames: written.frames, format: preview.format)
        if args.json { Output.json(summary) } else { Output.note(summary.text) }
        return written.complete ? .ok : .failed
    }
}

/// The options of `preview`, checked before lensd is asked.
struct PreviewRequest {
    var size: (width: Int, height: Int)?
    var fps: Double?
    var quality: Int?
    var frames: Int?
    var duration: Double?

    init(_ args: Arguments) throws {
        if let text = args.last("--size") {
            let parts = text.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                  (16...7680).contains(width), (16...7680).contains(height) else {
                throw CommandFailure(.usage, "--size must be WxH with each side in 16...7680, not \(text)")
            }
            size = (width, height)
        }
        fps = try args.number("--fps", in: .leastNonzeroMagnitude...Double.greatestFiniteMagnitude)
        quality = try Self.whole("--quality", args, in: 1...100)
        frames = try Self.whole("--frames", args, in: 1...Double(Int32.max))
        duration = try args.number("--duration", in: .leastNonzeroMagnitude...Double.greatestFiniteMagnitude)
        if frames != nil && duration != nil { throw CommandFailure(.usage, "--frames and --duration exclude each other") }
    }

    private static func whole(_ option: String, _ args: Arguments, in range: ClosedRange<Double>) throws -> Int? {
        guard let value = try args.number(option, in: range) else { return nil }
        guard value == value.rounded() else { throw CommandFailure(.usage, "\(option) must be a whole number, not \(Seconds.plain(value))") }
        return Int(value)
    }
}

/// What `preview -o FILE` reports: the file and what it holds.
struct PreviewJSON: Encodable {
    var path: String
    var frames: Int
    var width: Int
    var height: Int
    var fps: Double
    var mime: String
    /// Always false: preview frames are never signed.
    var signed = false

    init(path: String, frames: Int, format: LensPreviewFormat) {
        self.path = path
        self.frames = frames
        width = format.width
        height = format.height
        fps = format.fps
        mime = frames == 1 ? "image/jpeg" : "video/x-motion-jpeg"
    }

    var text: String {
        "\(path): \(frames) preview frame\(frames == 1 ? "" : "s"), \(width)x\(height), UNSIGNED "
            + "(preview frames are never signed; lensctl capture takes a signed photo)"
    }
}
