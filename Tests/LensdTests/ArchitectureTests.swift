import Foundation
import LensTestSupport
import XCTest

/// The architecture's rules, read from what was built and written rather than from a document:
/// every file and descriptor call goes through LensSystem (the undefined symbols of each module's
/// object files, as `nm -u` lists them: of the debug build, and with LENSD_TEST_BIN_DIR of the
/// release build scripts/package-test makes), EINTR is handled there alone, no module grows past
/// 70 files, and `@unchecked Sendable` (a promise the compiler cannot check) stays rare.
final class ArchitectureTests: XCTestCase {
    /// libc's file, descriptor, socket and directory functions: the calls LensSystem wraps.
    private static let fileAndDescriptorCalls: Set<String> = [
        "open", "open64", "openat", "openat64", "creat", "close", "read", "write", "pread", "pread64", "pwrite", "pwrite64",
        "readv", "writev", "lseek", "lseek64", "fstat", "fstat64", "stat", "stat64", "lstat", "lstat64", "fstatat",
        "fstatat64", "statx", "statfs", "fstatfs", "statvfs", "fstatvfs", "fsync", "fdatasync", "ftruncate", "ftruncate64",
        "truncate", "fallocate", "posix_fallocate", "rename", "renameat", "renameat2", "unlink", "unlinkat", "mkdir",
        "mkdirat", "rmdir", "link", "linkat", "symlink", "symlinkat", "readlink", "readlinkat", "access", "faccessat",
        "chmod", "fchmod", "fchmodat", "chown", "fchown", "fchownat", "lchown", "utimensat", "futimens", "flock", "fcntl",
        "fcntl64", "ioctl", "poll", "ppoll", "select", "pselect", "epoll_create1", "epoll_ctl", "epoll_wait", "pipe",
        "pipe2", "eventfd", "timerfd_create", "signalfd", "inotify_init1", "inotify_add_watch", "memfd_create", "dup",
        "dup2", "dup3", "mmap", "mmap64", "munmap", "socket", "socketpair", "connect", "bind", "listen", "accept",
        "accept4", "send", "sendto", "sendmsg", "recv", "recvfrom", "recvmsg", "shutdown", "getdents64", "opendir",
        "fdopendir", "readdir", "readdir64", "closedir", "fopen", "fopen64", "fdopen", "fclose", "fread", "fwrite",
        "fileno", "mkstemp", "mkdtemp", "chdir", "fchdir", "sendfile", "copy_file_range",
    ]

    /// The package's Swift modules but LensSystem and the tests' own, as Package.swift declares
    /// them: the objects SwiftPM made of each one's Swift files (those that still exist: a
    /// removed file's object stays in the build directory).
    private func modules() throws -> [(name: String, objects: [String])] {
        let root = TestTools.repoRoot
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let whole = NSRange(manifest.startIndex..., in: manifest)
        let declarations = try NSRegularExpression(pattern: #"\.([a-zA-Z]+)\(name: "([^"]+)""#).matches(in: manifest, range: whole)
        let path = try NSRegularExpression(pattern: #"path: "([^"]+)""#)
        return declarations.indices.compactMap { i in
            let text = { (range: NSRange) in String(manifest[Range(range, in: manifest)!]) }
            let kind = text(declarations[i].range(at: 1)), name = text(declarations[i].range(at: 2))
            guard ["target", "executableTarget"].contains(kind), !["LensSystem", "LensTestSupport", "lensd-test-peer"].contains(name) else { return nil }
            // Its path, if the declaration (up to the next one) gives one.
            let end = i + 1 < declarations.count ? declarations[i + 1].range.location : whole.length
            let rest = NSRange(location: declarations[i].range.upperBound, length: end - declarations[i].range.upperBound)
            let directory = path.firstMatch(in: manifest, range: rest).map { text($0.range(at: 1)) } ?? "Sources/\(name)"
            let built = TestTools.buildDirectory.appendingPathComponent(name.replacingOccurrences(of: "-", with: "_") + ".build")
            let sources = FileManager.default.enumerator(atPath: root.appendingPathComponent(directory).path)?.allObjects as? [String] ?? []
            return (name, sources.filter { $0.hasSuffix(".swift") }.map {
                built.appendingPathComponent(URL(fileURLWithPath: $0).lastPathComponent + ".o").path
            })
        }
    }

    func testNoModuleButLensSystemCallsAFileOrDescriptorFunction() throws {
        var checked: [String] = []
        var offenders: [String] = []
        for module in try modules() {
            // The C shims have no Swift files: they are where C is adapted, as LensSystem is. A
            // release build of the packaged products has no lens-bench.
            let objects = module.objects.filter { FileManager.default.fileExists(atPath: $0) }
            guard !objects.isEmpty else { continue }
            XCTAssertEqual(objects.count, module.objects.count, "\(module.name): objects missing in \(TestTools.buildDirectory.path)")
            let r = try runProcess(["nm", "-u"] + objects)
            XCTAssertEqual(r.status, 0, "nm -u \(module.name): " + String(decoding: r.stderr, as: UTF8.self))
            let called = Set(String(decoding: r.stdout, as: UTF8.self).split(separator: "\n")
                .compactMap { $0.split(separator: " ").last.map(String.init) })
            let forbidden = called.intersection(Self.fileAndDescriptorCalls)
            if !forbidden.isEmpty { offenders.append("\(module.name): \(forbidden.sorted().joined(separator: " "))") }
            checked.append(module.name)
        }
        // The daemon's modules, its client library and lensctl at least: an empty list would check nothing.
        XCTAssertTrue(Set(["LensDaemon", "LensClient", "LensCamera", "LensStorage", "lensctl"]).isSubset(of: checked),
                      "objects not found in \(TestTools.buildDirectory.path): checked only \(checked)")
        XCTAssertEqual(offenders, [], "call libc's file and descriptor functions themselves, not through LensSystem")
    }

    func testEINTRIsRetriedInLensSystemAlone() throws {
        let mentions = try swiftFiles().filter { !$0.module.hasPrefix("Sources/LensSystem") }.filter {
            try String(contentsOf: $0.file, encoding: .utf8).range(of: #"\bEINTR\b"#, options: .regularExpression) != nil
        }
        XCTAssertEqual(mentions.map(\.file.lastPathComponent), [])
    }

    func testNoModuleHasMoreThanSeventyFilesAndUncheckedSendableStaysRare() throws {
        let files = try swiftFiles()
        let perModule = Dictionary(grouping: files, by: \.module).mapValues(\.count)
        XCTAssertGreaterThan(perModule.count, 15, "\(perModule)")
        XCTAssertEqual(perModule.filter { $0.value > 70 }, [:])
        let unchecked = try files.map { try String(contentsOf: $0.file, encoding: .utf8).components(separatedBy: "@unchecked Sendable").count - 1 }
        XCTAssertLessThanOrEqual(unchecked.reduce(0, +), 8)
    }

    /// Every Swift file of the shipped modules (Sources/*, clients/lensctl) with its module's directory.
    private func swiftFiles() throws -> [(module: String, file: URL)] {
        let root = TestTools.repoRoot
        let sources = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)
            .map { "Sources/\($0)" } + ["clients/lensctl"]
        return sources.flatMap { module -> [(module: String, file: URL)] in
            let directory = root.appendingPathComponent(module)
            let walk = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
            return (walk?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }.map { (module, $0) }
        }
    }
}
