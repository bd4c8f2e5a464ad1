import Foundation
import LensBus
import LensSystem

// lensd-test-peer: a scriptable D-Bus client of lensd for integration tests that need a
// separate process — another user (run under setpriv), or a client to SIGKILL at a known step.
// Each step's outcome is printed as one line, flushed at once, so a test can follow along:
//   reply <step> <values…> | error <step> <name> <message> | signal <member> <values…>
//
// usage: lensd-test-peer --address ADDRESS STEP...
//   open[:noaudio]           OpenSession({}) (or {audio: false}) and remember the session
//   start | stop | close     StartCaptureSession / StopCaptureSession / Close
//   capture                  BeginCapture; remember the name
//   video | record | stoprec CameraMode = "video" / StartVideoCapture / StopVideoCapture
//                            (a video's name is remembered from VideoThumbnailGenerated)
//   wait:MEMBER[:SECONDS]    run the loop until the session's signal MEMBER arrives (exit 5 on timeout)
//   thumbnail:FILE           write the last InitialCaptureFinished thumbnail to FILE
//   fetch:FILE               FetchResult(name), copy the fd's bytes to FILE, keep the fd open
//   read:FILE                ReadResult(name) into FILE
//   recorded:SECONDS         run the loop until VideoRecordingProgress holds SECONDS of frames
//                            (exit 5 after 120 s): frames, not the wall clock, which runs ahead on a busy host
//   hang                     run the loop forever (to be killed)
//   readline                 block until the test writes a line to stdin (a step the test controls)
//   listen:SECONDS           subscribe to every signal from org.lensd.Lens1 and print them
//   call:PATH:INTERFACE:MEMBER   a call without arguments on any path (outsider tests)
//   get:PATH:INTERFACE:PROPERTY  a property read on any path

let destination = "org.lensd.Lens1"
var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, arguments[0] == "--address" else {
    FileHandle.standardError.write(Data("usage: lensd-test-peer --address ADDRESS STEP...\n".utf8))
    exit(2)
}
try Peer(address: arguments[1]).run(Array(arguments.dropFirst(2)))

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func describe(_ values: [BusValue]) -> String {
    values.map { value in
        if value.signature == "ay", let bytes = value.bytesValue { return "bytes:\(bytes.count)" }
        if let s = value.stringValue ?? value.objectPathValue { return s }
        if let d = value.vardictValue { return d.keys.sorted().map { "\($0)=\(describe([d[$0]!]))" }.joined(separator: ",") }
        return "\(value)"
    }.joined(separator: " ")
}

final class Peer {
    let loop: EventLoop
    let bus: BusConnection
    var sessionPath: String?
    var resultName: String?
    var received: [SignalMessage] = []
    var subscriptions: [BusRegistration] = []
    var openFDs: [Int32] = []
    var lastThumbnail: [UInt8]?

    init(address: String) throws {
        loop = try EventLoop()
        bus = try BusConnection(.address(address), loop: loop, description: "lensd-test-peer")
    }
    func run(for duration: Duration) throws {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            _ = try loop.runOnce(timeout: min(.milliseconds(100), deadline - .now))
        }
    }

    func sessionCall(_ step: String, _ member: String, _ args: [BusValue] = []) throws -> [BusValue]? {
        guard let path = sessionPath else { say("error \(step) NoSession open first"); exit(1) }
        do {
            let reply = try bus.call(destination: destination, path: path, interface: "org.lensd.Lens1.Session",
                                     member: member, arguments: args)
            say("reply \(step) \(describe(reply))")
            return reply
        } catch let error as BusError {
            say("error \(step) \(error.name) \(error.message)")
            return nil
        }
    }


    /// The duration in the session's VideoRecordingProgress (0 before the first frame).
    func recordedSeconds(_ step: String) throws -> Double {
        guard let path = sessionPath else { say("error \(step) NoSession open first"); exit(1) }
        let reply = try bus.call(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                                 arguments: [.string("org.lensd.Lens1.Session"), .string("VideoRecordingProgress")])
        return reply.first?.variantValue?.vardictValue?["duration"]?.doubleValue ?? 0
    }

    func run(_ steps: [String]) throws {
        for step in steps {
            let parts = step.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            switch parts[0] {
            case "open":
                do {
                    // Subscribed before OpenSession, as a signal-driven client must be: the session's
                    // first signal (CaptureDisabled when it opens disabled) follows the reply at once.
                    subscriptions.append(try bus.subscribe(sender: destination, path: nil, interface: nil, member: nil) {
                        guard $0.path == self.sessionPath else { return }
                        self.received.append($0)
                        if $0.member == "InitialCaptureFinished" { self.lastThumbnail = $0.arguments.last?.bytesValue }
                        if $0.member == "VideoThumbnailGenerated" { self.resultName = $0.arguments.first?.stringValue }
                        say("signal \($0.member) \(describe($0.arguments))")
                    })
                    let reply = try bus.call(destination: destination, path: "/org/lensd/Lens1", interface: "org.lensd.Lens1.Manager",
                                             member: "OpenSession",
                                             arguments: [.vardict(parts.count > 1 && parts[1] == "noaudio" ? ["audio": .bool(false)] : [:])])
                    sessionPath = reply.first?.objectPathValue
                    say("reply open \(sessionPath ?? "")")
                } catch let error as BusError {
                    say("error open \(error.name) \(error.message)")
                    exit(4)
                }
            case "start": _ = try sessionCall(step, "StartCaptureSession")
            case "stop": _ = try sessionCall(step, "StopCaptureSession")
            case "close": _ = try sessionCall(step, "Close")
            case "capture": resultName = try sessionCall(step, "BeginCapture")?.first?.stringValue
            case "video":
                guard let path = sessionPath else { say("error \(step) NoSession open first"); exit(1) }
                do {
                    _ = try bus.call(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties",
                                     member: "Set", arguments: [.string("org.lensd.Lens1.Session"), .string("CameraMode"),
                                                                .variant(.string("video"))])
                    say("reply video")
                } catch let error as BusError {
                    say("error video \(error.name) \(error.message)")
                }
            case "preview":
                if parts.count > 1 { sessionPath = parts[1] }
                if let fd = try sessionCall(step, "OpenPreview", [.vardict([:])])?.first?.fdValue { openFDs.append(fd) }
            case "record": _ = try sessionCall(step, "StartVideoCapture")
            case "stoprec": _ = try sessionCall(step, "StopVideoCapture")
            case "wait":
                let member = parts[1]
                let seconds = parts.count > 2 ? Double(parts[2]) ?? 30 : 30
                let deadline = Date().addingTimeInterval(seconds)
                while !received.contains(where: { $0.member == member }) {
                    guard Date() < deadline else { say("timeout \(member)"); exit(5) }
                    _ = try loop.runOnce(timeout: .milliseconds(100))
                }
                received.removeAll { $0.member == member }
            case "thumbnail":
                guard let bytes = lastThumbnail else { say("error \(step) NoThumbnail wait:InitialCaptureFinished first"); exit(1) }
                try Data(bytes).write(to: URL(fileURLWithPath: parts[1]))
                say("reply \(step)")
            case "fetch", "read":
                guard let name = resultName else { say("error \(step) NoResult capture first"); exit(1) }
                let reply = try sessionCall(step, parts[0] == "fetch" ? "FetchResult" : "ReadResult", [.string(name)])
                var bytes: [UInt8] = []
                if let fd = reply?.first?.fdValue {
                    openFDs.append(fd)
                    // Positioned reads: the descriptor's offset is the daemon's too (an open file shared).
                    bytes = try FileDescriptor.borrowing(fd) { (file) throws in
                        var read: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 1 << 16)
                        while case let n = try buffer.withUnsafeMutableBytes({ chunk in try file.read(into: chunk, at: read.count) }), n > 0 {
                            read += buffer[..<n]
                        }
                        return read
                    }
                } else if let read = reply?.first?.bytesValue {
                    bytes = read
                }
                if reply != nil { try Data(bytes).write(to: URL(fileURLWithPath: parts[1])) }
            case "recorded":
                let seconds = Double(parts[1]) ?? 0
                let deadline = Date().addingTimeInterval(120)
                while try recordedSeconds(step) < seconds {
                    guard Date() < deadline else { say("timeout \(step)"); exit(5) }
                    try run(for: .milliseconds(100))
                }
                say("reply \(step)")
            case "readline":
                guard readLine() != nil else { say("error readline EOF"); exit(1) }
                say("reply readline")
            case "hang": while true { _ = try loop.runOnce(timeout: .seconds(1)) }
            case "listen":
                subscriptions.append(try bus.subscribe(sender: destination, path: nil, interface: nil, member: nil) {
                    say("signal \($0.member) \($0.path) \(describe($0.arguments))")
                })
                say("listening")
                try run(for: .seconds(Int(parts[1]) ?? 5))
            case "call", "get":
                guard parts.count == 4 else { say("error \(step) usage"); exit(2) }
                do {
                    let reply = parts[0] == "call"
                        ? try bus.call(destination: destination, path: parts[1], interface: parts[2], member: parts[3])
                        : try bus.call(destination: destination, path: parts[1], interface: "org.freedesktop.DBus.Properties",
                                       member: "Get", arguments: [.string(parts[2]), .string(parts[3])])
                    say("reply \(step) \(describe(reply))")
                } catch let error as BusError {
                    say("error \(step) \(error.name) \(error.message)")
                }
            default:
                say("error \(step) unknown step")
                exit(2)
            }
        }

    }
}
