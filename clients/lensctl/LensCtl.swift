import LensBus
import LensClient

/// lensctl: the command-line client of lensd.
enum LensCtl {
    static let commands: [any Command.Type] = [
        StatusCommand.self, DevicesCommand.self, CaptureCommand.self, RecordCommand.self, WatchCommand.self, SetCommand.self,
        VerifyCommand.self, TrustAnchorCommand.self, TrustListCommand.self, PreviewCommand.self, OutboxCommand.self, DetectFacesCommand.self,
        ResultsCommand.self, FetchCommand.self, RemoveCommand.self, EnrollCommand.self, FaceCaptureCommand.self,
    ]

    static var usage: String {
        """
        usage: lensctl [--bus ADDRESS] [--json] COMMAND [OPTIONS]

        commands:
        \(commands.map { "  " + $0.synopsis }.joined(separator: "\n"))

        options for every command:
          --bus ADDRESS  the bus lensd is on: system, session, or a D-Bus address
                         (default: $LENSD_BUS, else system)
          --json         machine-readable output (schemas in docs/lensctl-json.md)
          --help         help for the command

        lensctl --version prints the version.

        exit codes: 0 ok · 1 failed (verify: Invalid, or not Trusted with --require-trusted) · 2 usage ·
                    3 daemon unreachable · 4 not authorized · 5 timeout · 6 no manifest · 7 unreadable input
                    (or no such directory for -o)
        """
    }

    static func run(_ argv: [String]) -> ExitCode {
        if argv == ["--version"] {
            Output.line("lensctl \(ProjectVersion.string)")
            return .ok
        }
        let (name, arguments) = commandFirst(argv)
        guard let name, !["--help", "-h", "help"].contains(name) else {
            Output.line(usage)
            return name == nil ? .usage : .ok
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            Output.error("unknown command \(name); see lensctl --help")
            return .usage
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            Output.line(command.help)
            return .ok
        }
        do {
            do {
                return try command.run(arguments)
            } catch let failure as OutputFile.Failure {
                throw CommandFailure(failure)
            }
        } catch let failure as CommandFailure {
            Output.error(failure.message)
            // One line, so that it also fits a JSON Lines stream (watch).
            if arguments.contains("--json") { Output.jsonLine(ErrorJSON(error: failure.message, exit_code: failure.code.rawValue)) }
            return failure.code
        } catch {
            Output.error("\(error)")
            return .failed
        }
    }
}

extension LensCtl {
    /// Options written before the command (`lensctl --bus ADDRESS capture …`) count as if
    /// written after it; the command's parser then checks them like the others.
    static func commandFirst(_ argv: [String]) -> (name: String?, arguments: [String]) {
        var leading: [String] = []
        var rest = argv[...]
        while let first = rest.first, first.hasPrefix("-"), !["--help", "-h"].contains(first) {
            leading.append(rest.removeFirst())
            if first == "--bus", let value = rest.popFirst() { leading.append(value) }
        }
        return (rest.first, Array(rest.dropFirst()) + leading)
    }
}

/// What `--json` prints when a command fails before it has a result.
struct ErrorJSON: Encodable {
    var error: String
    var exit_code: Int32
}
