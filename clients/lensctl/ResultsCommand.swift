import FoundationEssentials
import LensClient

/// `lensctl results`: the caller's results stored in lensd, and how much of the caps they use.
enum ResultsCommand: Command {
    static let name = "results"
    static let synopsis = "results                your photos and videos stored in lensd, and your usage of the caps"
    static let help = """
    usage: lensctl results [--bus ADDRESS] [--json]

    Lists the photos and videos lensd keeps for you (never another user's), newest first: name,
    type, size (as df -h: 1.8M), when lensd stored it (UTC), and signed, unsigned or recovered (a recording
    lensd finalized after a crash). Then your usage against the per-user caps: lensd deletes
    your oldest results beyond them, and says so (watch shows ResultEvicted).
    Write one to a file with lensctl fetch NAME, delete one with lensctl rm NAME.
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv)
        _ = try args.positionals(0, "no arguments")
        let camera = try Connection.camera(args)
        let (results, limits) = try Connection.client { () throws(LensClientError) in
            (try camera.results(), try camera.status().resultLimits)
        }
        let listing = ResultsJSON(results: results, limits: limits)
        if args.json {
            Output.json(listing)
        } else {
            for result in listing.results { Output.line(result.text) }
            Output.line(listing.usage.text)
        }
        return .ok
    }
}

struct ResultsJSON: Encodable {
    struct Result: Encodable {
        var name: String
        /// "photo" or "video".
        var type: String
        var mime: String
        var size: UInt64
        var created: Date
        var signed: Bool
        var recovered: Bool
        var sha256: String?

        /// "NAME  photo  179K  2026-12-01T23:36:14Z  signed".
        var text: String {
            let state = (recovered ? "recovered, " : "") + (signed ? "signed" : "unsigned")
            return "\(name)  \(type)  \(Describe.size(size))  \(Output.iso8601(created))  \(state)"
        }
    }

    struct Usage: Encodable {
        var count: Int
        var bytes: UInt64
        var max_count: UInt32
        var max_bytes: UInt64

        var text: String {
            "usage: \(count) of \(max_count) results, \(Describe.size(bytes)) of \(Describe.size(max_bytes)) "
                + "(the oldest are deleted beyond either)"
        }
    }

    var results: [Result]
    var usage: Usage

    init(results: [LensStoredResult], limits: LensResultLimits) {
        self.results = results.map {
            Result(name: $0.name, type: $0.isVideo ? "video" : "photo", mime: $0.mime, size: $0.size, created: $0.created,
                   signed: $0.signed, recovered: $0.recovered, sha256: $0.sha256)
        }
        usage = Usage(count: results.count, bytes: results.reduce(0) { $0 + $1.size }, max_count: limits.maxCount,
                      max_bytes: limits.maxBytes)
    }
}
