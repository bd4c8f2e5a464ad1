import Foundation
import LensTestSupport

/// clients/python as another user runs it: the scripts and the venv's jeepney copied where that
/// user can read them (ReadableCopy), run by Debian's python3. The venv is root's to use: it lies
/// in the checkout, which may be closed to others, and so may its interpreter (pyenv's, in /root).
struct PythonClientCopy {
    /// Debian's python3 (scripts/setup installs it), outside any checkout.
    static let interpreter = "/usr/bin/python3"
    let directory: URL

    /// Copies the scripts of `clients` (a clients/python) and jeepney into a directory of `tmp`.
    init(of clients: URL, in tmp: TemporaryDirectory) throws {
        let scripts = try FileManager.default.contentsOfDirectory(at: clients, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "py" }
        directory = tmp.file("python-client-\(UUID().uuidString.prefix(8))")
        try ReadableCopy.make(of: scripts + [try Self.jeepney()], in: directory)
    }

    /// `script` (e.g. lens_record.py) with `arguments`: Python puts the script's directory first on
    /// sys.path, so lens_dbus and jeepney are found beside it.
    func argv(_ script: String, _ arguments: [String]) -> [String] {
        [Self.interpreter, directory.appendingPathComponent(script).path] + arguments
    }

    /// The venv's jeepney package (pure Python: any python3 runs it).
    private static func jeepney() throws -> URL {
        let r = try runProcess([try TestTools.python(), "-c", "import jeepney, os; print(os.path.dirname(jeepney.__file__))"])
        let path = String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard r.status == 0, !path.isEmpty else {
            throw TestToolError("jeepney is not in the venv (run scripts/setup): \(String(decoding: r.stderr, as: UTF8.self))")
        }
        return URL(fileURLWithPath: path)
    }
}
