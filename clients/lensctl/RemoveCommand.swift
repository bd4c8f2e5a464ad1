import LensClient

/// `lensctl rm NAME…`: deletes stored results of the caller.
enum RemoveCommand: Command {
    static let name = "rm"
    static let synopsis = "rm NAME...             delete your stored photos or videos from lensd"
    static let help = """
    usage: lensctl rm NAME... [--bus ADDRESS] [--json]

    Deletes each named result of yours from lensd's store (see lensctl results); files you
    already wrote are not touched. Exit 1 if any name is not one of your results; the
    others are deleted all the same.
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv)
        guard !args.positionals.isEmpty else { throw CommandFailure(.usage, "expected the NAME of a result (see lensctl results)") }
        let camera = try Connection.camera(args)
        var removed: [String] = []
        var missing: [String] = []
        for name in args.positionals {
            do {
                try camera.deleteResult(name)
                removed.append(name)
                if !args.json { Output.line("removed \(name)") }
            } catch .notFound, .invalidArgument {
                missing.append(name)
                Output.error("you have no result named \(name); see lensctl results")
            } catch {
                throw CommandFailure(error)
            }
        }
        if args.json { Output.json(["removed": removed, "missing": missing]) }
        return missing.isEmpty ? .ok : .failed
    }
}
