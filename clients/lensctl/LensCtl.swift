/// lensctl: the command-line client of lensd.
enum LensCtl {
    static let usage = """
    usage: lensctl COMMAND [OPTIONS]

    commands:
      verify FILE [--trust-anchor PEM]... [--require-trusted] [--json]
                  check a photo's C2PA manifest: signature, signer, hashes, capture data

    options for every command:
      --json      machine-readable output (schemas in docs/lensctl-json.md)
      --help      this text

    exit codes: 0 ok · 1 failed (verify: Invalid, or not Trusted with --require-trusted) · 2 usage ·
                3 daemon unreachable · 4 not authorized · 5 timeout · 6 no manifest · 7 unreadable input
    """

    static let commands: [String: @Sendable ([String]) throws -> ExitCode] = [
        "verify": VerifyCommand.run,
    ]

    static func run(_ argv: [String]) -> ExitCode {
        guard let name = argv.first, !["--help", "-h", "help"].contains(name) else {
            Output.line(usage)
            return argv.isEmpty ? .usage : .ok
        }
        guard let command = commands[name] else {
            Output.error("unknown command \(name); see lensctl --help")
            return .usage
        }
        if argv.contains("--help") {
            Output.line(usage)
            return .ok
        }
        do {
            return try command(Array(argv.dropFirst()))
        } catch let failure as CommandFailure {
            Output.error(failure.message)
            if argv.contains("--json") { Output.json(ErrorJSON(error: failure.message, exit_code: failure.code.rawValue)) }
            return failure.code
        } catch {
            Output.error("\(error)")
            return .failed
        }
    }
}

/// What `--json` prints when a command fails before it has a result.
struct ErrorJSON: Encodable {
    var error: String
    var exit_code: Int32
}
