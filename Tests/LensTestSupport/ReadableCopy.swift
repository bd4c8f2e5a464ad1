import Foundation

/// Files of the checkout copied where the tests' other users (lensd, lensuser…) can read them.
/// A checkout may sit where only its owner can enter (a clone under /root, mode 0700), and a
/// process run as another user opens its script itself: setpriv's exec still reaches the
/// interpreter, but the interpreter cannot read the script.
public enum ReadableCopy {
    /// Copies each of `sources` (files or directories) into `directory`, created if missing, and
    /// makes the copies readable (and directories enterable) by everyone, whatever the modes of the
    /// originals (0600 under a umask of 077). Returns the copies, in order.
    @discardableResult
    public static func make(of sources: [URL], in directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let copies = try sources.map { source in
            let copy = directory.appendingPathComponent(source.lastPathComponent)
            try FileManager.default.copyItem(at: source, to: copy)
            return copy
        }
        let r = try runProcess(["chmod", "-R", "a+rX", directory.path])
        guard r.status == 0 else { throw TestToolError("chmod -R a+rX \(directory.path): \(String(decoding: r.stderr, as: UTF8.self))") }
        return copies
    }
}
