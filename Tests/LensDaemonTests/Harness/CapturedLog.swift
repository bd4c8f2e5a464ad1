import Foundation
@testable import LensDaemon
import LensTestSupport

/// lensd's log in process. Log writes to the process's stderr, so for the tests that read it
/// fd 2 points at a file while they run (at level info, lensd's default); `restore` puts it back
/// and, for a failed test, prints what was logged.
final class CapturedLog {
    private let file: URL
    private var saved: Int32?

    init(in directory: TemporaryDirectory) throws {
        file = directory.file("lensd.log")
        let fd = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw TestToolError("cannot create \(file.path): errno \(errno)") }
        defer { close(fd) }
        Log.setLevel(.info)
        saved = dup(STDERR_FILENO)
        dup2(fd, STDERR_FILENO)
    }

    var text: String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

    func restore(printing: Bool) {
        guard let saved = saved.take() else { return }
        dup2(saved, STDERR_FILENO)
        close(saved)
        if printing { print("lensd log:\n\(text)") }
    }

    deinit { restore(printing: false) }
}
