// Test support: repo paths, subprocesses, temp dirs, and the Python/openssl test fixtures
// in Tests/oracle (test PKI, test JPEGs). Foundation, Synchronization and XCTest only.
import Foundation
import Synchronization
import XCTest

/// An error from the test tooling; its text is what XCTest prints.
public struct TestToolError: Error, CustomStringConvertible, LocalizedError {
    public let description: String
    public init(_ description: String) { self.description = description }
    public var errorDescription: String? { description }
}

public enum TestTools {
    /// <repo>, found from this file's path: <repo>/Tests/LensTestSupport/TestTools.swift.
    public static let repoRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // LensTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    public static let oracleDir = repoRoot.appendingPathComponent("Tests/oracle")

    /// Where SwiftPM put the binaries: the test bundle's own directory, or LENSD_TEST_BIN_DIR for
    /// another package's tests (clients/lens-camera) that run this package's lensd.
    public static var buildDirectory: URL {
        if let directory = ProcessInfo.processInfo.environment["LENSD_TEST_BIN_DIR"], !directory.isEmpty {
            return URL(fileURLWithPath: directory)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// /tmp/lensd-test-<name>-<hash of the build tree>, made if missing (mode 755): what the test
    /// processes of one build tree share (its binaries, made fixtures); test runs of two checkouts
    /// must not swap them under each other.
    public static func perBuildTreeDirectory(_ name: String) throws -> String {
        let directory = "/tmp/lensd-test-\(name)-\(fnv1a(buildDirectory.path.utf8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        return directory
    }

    /// The 64-bit FNV-1a hash of `bytes`, in hex: a short name for a path or a file's version.
    public static func fnv1a(_ bytes: some Sequence<UInt8>) -> String {
        String(bytes.reduce(into: UInt64(14_695_981_039_346_656_037)) { $0 = ($0 ^ UInt64($1)) &* 1_099_511_628_211 }, radix: 16)
    }

    /// <repo>/.venv/bin/python; throws "run scripts/setup first" when it is missing.
    public static func python() throws -> String {
        let path = repoRoot.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestToolError("\(path) not found: run scripts/setup first")
        }
        return path
    }

    /// Runs Tests/oracle/<script> with the venv's python; throws on a non-zero exit.
    @discardableResult
    public static func runOracle(_ script: String, _ args: [String]) throws -> Data {
        let argv = [try python(), oracleDir.appendingPathComponent(script).path] + args
        let r = try runProcess(argv)
        guard r.status == 0 else {
            throw TestToolError("\(script) \(args.joined(separator: " ")) exited \(r.status): "
                + String(decoding: r.stderr, as: UTF8.self))
        }
        return r.stdout
    }
}

/// Runs argv (argv[0] is a path, or a name looked up on PATH) and waits for it.
/// `env` is added to the current environment. stdout/stderr go through temp files, so
/// large outputs cannot dead-lock a pipe.
public func runProcess(_ argv: [String], env: [String: String] = [:]) throws
    -> (status: Int32, stdout: Data, stderr: Data)
{
    guard let first = argv.first else { throw TestToolError("runProcess: empty argv") }
    let p = Process()
    if first.contains("/") {
        p.executableURL = URL(fileURLWithPath: first)
        p.arguments = Array(argv.dropFirst())
    } else {
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = argv
    }
    var environment = ProcessInfo.processInfo.environment
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    environment.merge(env) { _, new in new }
    p.environment = environment

    let tmp = try TemporaryDirectory(prefix: "lensd-proc")
    let outURL = tmp.url.appendingPathComponent("stdout")
    let errURL = tmp.url.appendingPathComponent("stderr")
    for u in [outURL, errURL] {
        guard FileManager.default.createFile(atPath: u.path, contents: nil) else {
            throw TestToolError("cannot create \(u.path)")
        }
    }
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    p.standardOutput = out
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    do {
        try p.run()
    } catch {
        throw TestToolError("cannot start \(argv.joined(separator: " ")): \(error)")
    }
    p.waitUntilExit()
    try out.close()
    try err.close()
    return (p.terminationStatus, try Data(contentsOf: outURL), try Data(contentsOf: errURL))
}

/// A fresh directory under /tmp, removed with everything in it when the object goes away.
public final class TemporaryDirectory {
    public let url: URL

    public init(prefix: String = "lensd-test") throws {
        url = URL(fileURLWithPath: "/tmp")
            .appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// One that a static holds for the whole test process (statics are never released): removed
    /// when the process exits.
    public static func forProcess(prefix: String) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(prefix: prefix)
        processLong.withLock { paths in
            if paths.isEmpty { atexit { TemporaryDirectory.removeProcessLong() } }
            paths.append(directory.url.path)
        }
        return directory
    }

    private static let processLong = Mutex<[String]>([])

    private static func removeProcessLong() {
        for path in processLong.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }

    /// <dir>/<name> (not created).
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

extension XCTestCase {
    /// A TemporaryDirectory removed when this test ends. One kept in a property would outlive
    /// it: XCTest keeps every test case object, with its properties, until the process exits.
    public func temporaryDirectory(prefix: String) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(prefix: prefix)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory.url) }
        return directory
    }
}

/// A root → intermediate(s) → leaf PKI from Tests/oracle/make_pki.sh (the profile c2pa-rs
/// accepts). `chain` = leaf + intermediates (COSE x5chain order); `other` = unrelated root.
public struct TestPKI {
    /// The key type of every certificate in the chain (make_pki.sh --curve).
    public enum Curve: String {
        case p256 = "P-256", p384 = "P-384", p521 = "P-521", rsa = "RSA", rsaPSS = "RSA-PSS", ed25519 = "ED25519"
    }

    public let dir: URL
    public let curve: Curve
    public var root: URL { dir.appendingPathComponent("root.pem") }
    public var leaf: URL { dir.appendingPathComponent("leaf.pem") }
    public var key: URL { dir.appendingPathComponent("leaf.pk8") }  // PKCS#8 PEM
    public var chain: URL { dir.appendingPathComponent("chain.pem") }
    public var other: URL { dir.appendingPathComponent("other.pem") }

    /// A PKI whose files (the names above) are already in `dir`.
    public init(dir: URL, curve: Curve) {
        self.dir = dir
        self.curve = curve
    }

    /// `leafDays`: the leaf's lifetime from now (default 365), for certificates that expire soon.
    public static func make(in dir: URL, curve: Curve = .p256, intermediates: Int = 1,
                     expiredLeaf: Bool = false, leafDays: Int? = nil) throws -> TestPKI {
        var argv = ["/bin/bash", TestTools.oracleDir.appendingPathComponent("make_pki.sh").path,
                    dir.path, "--curve", curve.rawValue, "--intermediates", String(intermediates)]
        if expiredLeaf { argv.append("--leaf-expired") }
        if let leafDays { argv += ["--leaf-days", String(leafDays)] }
        let r = try runProcess(argv)
        guard r.status == 0 else {
            throw TestToolError("make_pki.sh failed (\(r.status)): "
                + String(decoding: r.stderr, as: UTF8.self))
        }
        return TestPKI(dir: dir, curve: curve)
    }
}

/// Test JPEGs from Tests/oracle/make_jpeg.py (gradient + noise, deterministic per seed).
public enum TestJPEG {
    public struct Variant: OptionSet, Sendable {
        public init(rawValue: Int) { self.rawValue = rawValue }
        public let rawValue: Int
        /// no JFIF APP0: SOI is followed by DQT.
        public static let noApp0 = Variant(rawValue: 1)
        /// Exif APP1 (Make/Model) directly after SOI, no APP0.
        public static let exifFirst = Variant(rawValue: 2)
        /// a non-C2PA APP11 (JPEG XT "JP", En=0x0001, a 'json' JUMBF box) after APP0.
        public static let foreignApp11 = Variant(rawValue: 4)
    }

    /// How the chroma is stored; .grey makes a one-component JPEG.
    public enum Subsampling: String, Sendable {
        case s420 = "4:2:0", s422 = "4:2:2", s444 = "4:4:4", grey
    }

    /// `color` makes a flat image of that R, G, B instead of gradient and noise; `noise` is
    /// make_jpeg.py's blend factor (0 = the smooth gradient alone).
    @discardableResult
    public static func make(at url: URL, width: Int = 640, height: Int = 480,
                     variant: Variant = [], seed: Int = 1, subsampling: Subsampling? = nil,
                     color: (red: UInt8, green: UInt8, blue: UInt8)? = nil, noise: Double? = nil) throws -> URL {
        var args = [url.path, "--width", String(width), "--height", String(height),
                    "--seed", String(seed)]
        if let noise { args += ["--noise", String(noise)] }
        switch subsampling {
        case .grey: args.append("--grey")
        case let subsampling?: args += ["--subsampling", subsampling.rawValue]
        case nil: break
        }
        if let color { args += ["--color", "\(color.red),\(color.green),\(color.blue)"] }
        if variant.contains(.noApp0) { args.append("--no-app0") }
        if variant.contains(.exifFirst) { args.append("--exif-first") }
        if variant.contains(.foreignApp11) { args.append("--foreign-app11") }
        try TestTools.runOracle("make_jpeg.py", args)
        return url
    }
}
