import FoundationEssentials
import LensClient

/// `lensctl watch`: the session's state, then every event as it arrives.
enum WatchCommand: Command {
    static let name = "watch"
    static let synopsis = "watch                  print every event of a session as it arrives"
    static let help = """
    usage: lensctl watch [--count N] [--duration S] [--bus ADDRESS] [--json]

    Opens a session, prints its state (a "Status" line), then every event lensd sends it, one
    line each, until N events have arrived, S seconds have passed, lensd goes away (exit 3) or
    you stop it. With --json: one JSON object per line.

    \(scope)
    """

    /// What lensd sends a session that only watches; README.md says the same (a test keeps them equal).
    static let scope = """
    lensd sends a watching session the capture gate (CaptureDisabled, CaptureEnabled),
    LocationChanged, and news of your results that no command of yours asked for (ResultEvicted,
    ResultUpdated, ResultUploaded, UploadFailed, a video recovered after a crash). Control changes
    (flash, zoom, focus, camera) and photo and video events go only to the session that made
    them: a lensctl set or a capture in another terminal shows there, not in watch.
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv, options: ["--count", "--duration"])
        _ = try args.positionals(0, "no arguments")
        let count = try args.number("--count", in: 0...Double(Int32.max)).map { Int($0) }
        let duration = try args.number("--duration", in: 0...Double(Int32.max))
        let camera = try Connection.camera(args)
        let inbox = EventInbox(camera)
        let (daemon, capture) = try Connection.client { () throws(LensClientError) in (try camera.status(), try camera.captureStatus()) }
        let now = Date()
        if args.json {
            Output.jsonLine(EventJSON(status: StatusJSON(daemon, capture), time: now))
        } else {
            Output.line(EventText.status(capture, at: now))
        }
        let end = duration.map { ContinuousClock.now + .milliseconds(Int($0 * 1000)) }
        var seen = 0
        while count.map({ seen < $0 }) ?? true {
            // Without --duration, wake every minute only to wait again.
            guard let event = inbox.next(before: end ?? .now + .seconds(60)) else {
                if end != nil { break } else { continue }
            }
            let time = Date()
            if args.json { Output.jsonLine(EventJSON(event, time: time)) } else { Output.line(EventText.event(event, at: time)) }
            seen += 1
            // The Disconnected line has said it all; no error object after it.
            if case .disconnected(let error) = event {
                Output.error(error.message)
                return CommandFailure(error).code
            }
        }
        return .ok
    }
}
