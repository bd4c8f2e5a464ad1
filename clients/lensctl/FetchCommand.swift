import C2PA
import FoundationEssentials
import LensClient

/// `lensctl fetch NAME`: one stored result written to a file, as capture and record write theirs.
enum FetchCommand: Command {
    static let name = "fetch"
    static let synopsis = "fetch NAME [-o FILE]   write one of your stored photos or videos to a file"
    static let help = """
    usage: lensctl fetch NAME [-o FILE|DIR|-] [--force] [--bus ADDRESS] [--json]

    Writes the exact bytes lensd stored as NAME (see lensctl results) — a photo, a video, a
    video lensd recovered after a crash — checked against their SHA-256, all or nothing, to FILE
    (default NAME.jpg or NAME.mp4). Prints name, size and path (on stderr with -o -).

      -o FILE|DIR|-  a file (never overwritten without --force), NAME.jpg/NAME.mp4 in a
                     directory, or - for standard output
      --force        overwrite FILE when it is a regular file (never a device, FIFO, socket
                     or symbolic link)
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv, options: ["-o"], switches: ["--force"])
        let name = try args.positionals(1, "the NAME of a result (see lensctl results)")[0]
        let force = args.has("--force")
        let target = try OutputFile.target(args.last("-o"), force: force)
        let camera = try Connection.camera(args)
        let results = try Connection.client { () throws(LensClientError) in try camera.results() }
        guard let stored = results.first(where: { $0.name == name }) else {
            throw CommandFailure(.failed, "you have no result named \(name); see lensctl results")
        }
        let (path, info) = try OutputFile.write(to: target, name: name, fileExtension: (AssetFormat(mediaType: stored.mime) ?? .jpeg).fileExtension,
                                                overwrite: force) { file in
            let info = try Connection.client { () throws(LensClientError) in try camera.fetchResult(name, into: file) }
            let sha256 = try SHA256Hex.of(file, path: "result \(name)")
            guard sha256 == info.sha256 else {
                throw CommandFailure(.failed, "result \(name) arrived damaged: sha256 \(sha256), lensd announced \(info.sha256)")
            }
            return info
        }
        let result = FetchJSON(name: name, path: path, size: info.size, sha256: info.sha256, mime: info.mime,
                               signed: stored.signed, recovered: stored.recovered)
        Output.result(result, text: "\(name)  \(info.size) bytes  \(path)", json: args.json,
                      standardOutputTaken: target.isStandardOutput)
        return .ok
    }
}

struct FetchJSON: Encodable {
    var name: String
    var path: String
    var size: UInt64
    var sha256: String
    var mime: String
    var signed: Bool
    var recovered: Bool
}
