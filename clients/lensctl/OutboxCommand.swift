import FoundationEssentials
import Glibc
import LensClient

/// `lensctl outbox [retry [NAME]]`: what lensd still has to send to the upload-url server.
enum OutboxCommand: Command {
    static let name = "outbox"
    static let synopsis = "outbox [retry [NAME]]  results waiting to be uploaded; retry: an attempt now"
    static let help = """
    usage: lensctl outbox [--bus ADDRESS] [--json]
           lensctl outbox retry [NAME] [--bus ADDRESS] [--json]

    Shows the outbox (lensd's upload-url): how many results wait, why the last attempt failed and
    when the next one is due, then your own queued and failed uploads (root: everyone's), one a line:
    NAME  STATE  SIZE  ATTEMPTS  NEXT ATTEMPT  LAST ERROR.
    retry asks for an attempt now for NAME, or for all of yours (root: everyone's), failed
    ones included (a failed upload is otherwise not tried again). Exit 1 when lensd has no
    upload-url, or NAME is not waiting.
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv)
        let words = args.positionals
        guard words.isEmpty || (words[0] == "retry" && words.count <= 2) else {
            throw CommandFailure(.usage, "expected nothing, or retry [NAME]")
        }
        let camera = try Connection.camera(args)
        if words.first == "retry" {
            let name = words.count == 2 ? words[1] : nil
            let count = try Connection.client { () throws(LensClientError) in try camera.retryUploads(name: name) }
            if args.json { Output.json(["retried": count]) } else { Output.line("\(count) upload\(count == 1 ? "" : "s") to be attempted now") }
            return .ok
        }
        let (state, uploads) = try Connection.client { () throws(LensClientError) in (try camera.outboxState(), try camera.uploads()) }
        if args.json {
            Output.json(OutboxJSON(state: OutboxStateJSON(state), uploads: uploads.map(UploadJSON.init)))
            return .ok
        }
        let next = state.nextAttempt.map { ", next attempt \(Output.iso8601($0))" } ?? ""
        let failure = state.lastError.isEmpty ? "" : ", last error: \(state.lastError)"
        Output.line("outbox: \(state.queued) queued (\(state.bytes) bytes)\(next)\(failure)")
        for upload in uploads {
            let due = upload.nextAttempt.map(Output.iso8601) ?? "-"
            Output.line("\(upload.name)\t\(upload.state.rawValue)\t\(upload.size) bytes\t\(upload.attempts) attempts\t\(due)\t\(upload.lastError)")
        }
        return .ok
    }
}

struct OutboxJSON: Encodable {
    var state: OutboxStateJSON
    var uploads: [UploadJSON]
}

/// next_attempt is left out when no retry waits.
struct OutboxStateJSON: Encodable {
    var queued: UInt32
    var bytes: UInt64
    var last_error: String
    var next_attempt: Date?

    init(_ state: LensOutboxState) {
        (queued, bytes, last_error, next_attempt) = (state.queued, state.bytes, state.lastError, state.nextAttempt)
    }
}

struct UploadJSON: Encodable {
    var name: String
    var uid: UInt32
    var state: String
    var mime: String
    var size: UInt64
    var attempts: UInt32
    var next_attempt: Date?
    var last_error: String

    init(_ upload: LensUpload) {
        (name, uid, state, mime, size) = (upload.name, upload.uid, upload.state.rawValue, upload.mime, upload.size)
        (attempts, next_attempt, last_error) = (upload.attempts, upload.nextAttempt, upload.lastError)
    }
}
