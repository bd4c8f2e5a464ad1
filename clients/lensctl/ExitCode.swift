import LensClient

/// `lensctl` exit codes, the same for every subcommand (lensctl(1), docs/man/lensctl.1).
enum ExitCode: Int32 {
    case ok = 0
    /// The operation failed; for `verify`: Invalid, or not Trusted with `--require-trusted`.
    case failed = 1
    case usage = 2
    case daemonUnreachable = 3
    case notAuthorized = 4
    case timeout = 5
    case noManifest = 6
    case unreadableInput = 7
}

/// Ends a subcommand with an exit code and one readable line for stderr.
struct CommandFailure: Error {
    var code: ExitCode
    var message: String

    init(_ code: ExitCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A refused `-o` target (exit 2 for a misuse, 7 for a directory that is not there) or a
    /// failed write of the result.
    init(_ failure: OutputFile.Failure) {
        let code: ExitCode = switch failure.kind {
        case .usage: .usage
        case .noSuchDirectory: .unreadableInput
        case .failed: .failed
        }
        self.init(code, failure.message)
    }

    /// A LensClient error as the exit code that means it.
    init(_ error: LensClientError) {
        switch error {
        case .unreachable, .disconnected: self.init(.daemonUnreachable, error.message)
        case .notAuthorized: self.init(.notAuthorized, error.message)
        case .timeout: self.init(.timeout, error.message)
        default: self.init(.failed, error.message)
        }
    }
}
