import Foundation

/// A tmpfs of `size` (e.g. "16m") mounted on a new directory, for tests of a small or full disk
/// (they run as root). Unmounted when released — lazily if something still holds a file there.
public final class SmallDisk {
    public let path: URL

    public init(at path: URL, size: String) throws {
        self.path = path
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        let r = try runProcess(["mount", "-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", path.path])
        guard r.status == 0 else { throw TestToolError("mount tmpfs: \(String(decoding: r.stderr, as: UTF8.self))") }
    }

    deinit {
        if (try? runProcess(["umount", path.path]))?.status != 0 { _ = try? runProcess(["umount", "-l", path.path]) }
    }
}
