import Foundation
import LensTestSupport
import XCTest

/// What lensd says about its configuration: the file and line of a mistake, the key meant, the
/// errno of an unreadable file, the usage only for command-line mistakes; `--check-config`.
final class ConfigurationDiagnosticsTests: XCTestCase {
    private var tmp: TemporaryDirectory!

    override func setUpWithError() throws { tmp = try temporaryDirectory(prefix: "lensd-config") }

    private func lensd(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let run = try runProcess([try DaemonUnderTest.installedBinary("lensd")] + arguments)
        return (run.status, String(decoding: run.stdout, as: UTF8.self), String(decoding: run.stderr, as: UTF8.self))
    }

    private func check(_ text: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let file = tmp.file("lensd.conf")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return try lensd(["--check-config", "--config", file.path])
    }

    func testRenewBeforeTakesADuration() throws {
        let run = try check("renew-before = soon\n")
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("lensd.conf:1: renew-before must be a duration"), run.stderr)
        XCTAssertEqual(try check("renew-before = 45d\n").status, 0)
    }

    func testAMistakeNamesFileAndLineAndTheKeyMeant() throws {
        let run = try check("# comment\n\ncamera = synthetic\ncamra = synthetic\n")
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("\(tmp.file("lensd.conf").path):4: unknown setting camra — did you mean camera?"), run.stderr)
        XCTAssertFalse(run.stderr.contains("usage:"), "a file's mistake is not a usage error: \(run.stderr)")
        let syntax = try check("camera synthetic\n")
        XCTAssertTrue(syntax.stderr.contains("lensd.conf:1: expected key = value"), syntax.stderr)
        XCTAssertTrue(try check("frobnicate = 1\n").stderr.hasSuffix("unknown setting frobnicate\n"), "no far-fetched guess")
    }

    func testSizesAndDurationsTakeUnits() throws {
        let good = try check("min-free-bytes = 64M\nmax-result-bytes-per-user = 1G\nsession-idle-timeout = 5m\nvideo-max-duration = 1h\n")
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertTrue(good.stdout.hasPrefix("lensd: configuration OK"), good.stdout)
        for bad in ["min-free-bytes = 64Q", "min-free-bytes = -1", "session-idle-timeout = 5 years",
                    "video-max-bytes = 99999999999999999999G"] {
            let run = try check(bad + "\n")
            XCTAssertEqual(run.status, 2, bad)
            XCTAssertTrue(run.stderr.contains("lensd.conf:1: "), run.stderr)
        }
    }

    func testTheShippedConfigurationChecksAndDocumentsEveryKey() throws {
        let shipped = try String(contentsOf: TestTools.repoRoot.appendingPathComponent("config/lensd.conf"), encoding: .utf8)
        // Lines such as "#camera = auto" document a key and its default.
        let defaults = shipped.split(separator: "\n").filter { $0.wholeMatch(of: /#[a-z-]+ =.*/) != nil }.map { $0.dropFirst() }
        let documented = defaults.map { String($0.prefix { $0 != " " }) }
        XCTAssertGreaterThan(documented.count, 20)
        // Those with a value, uncommented, are a valid configuration (camera-position's is an example).
        let uncommented = defaults.filter { !$0.hasSuffix("=") && !$0.hasPrefix("camera-position") }.joined(separator: "\n")
        let run = try check(uncommented + "\n")
        XCTAssertEqual(run.status, 0, run.stderr + uncommented)
        // Every documented key is one lensd knows (a typo in the file would be suggested a fix).
        for key in documented {
            XCTAssertFalse(try check("\(key) = \n").stderr.contains("unknown setting"), key)
        }
    }

    func testAnUnreadableFileGivesTheReason() throws {
        let run = try lensd(["--check-config", "--config", tmp.url.path])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("cannot read \(tmp.url.path): Is a directory"), run.stderr)
        let missing = try lensd(["--check-config", "--config", tmp.file("absent").path])
        XCTAssertTrue(missing.stderr.contains("No such file or directory"), missing.stderr)
    }

    func testCommandLineMistakesShowTheUsage() throws {
        let run = try lensd(["--check-config", "--camra", "synthetic"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("--camra: unknown setting camra — did you mean camera?"), run.stderr)
        XCTAssertTrue(run.stderr.contains("usage: lensd"), run.stderr)
    }

    /// journald reads the `<N>` priority prefixes; a person at a terminal gets the lines without them.
    func testNoPriorityPrefixesOnATerminal() throws {
        let binary = try DaemonUnderTest.installedBinary("lensd")
        let piped = try lensd(["--camra", "x"])
        XCTAssertTrue(piped.stderr.hasPrefix("<3>lensd: "), piped.stderr)
        // script(1) gives lensd a pseudo-terminal as its stderr.
        let onTerminal = try runProcess(["script", "-qec", "\(binary) --camra x", "/dev/null"])
        let text = String(decoding: onTerminal.stdout, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("lensd: --camra: unknown setting"), text)
        XCTAssertFalse(text.contains("<3>"), text)
    }

    /// A lensd that cannot reach its bus leaves the state directory as it found it (no identity).
    func testNoIdentityIsMadeBeforeTheBusIsReached() throws {
        let state = tmp.file("state")
        let run = try lensd(["--bus", "unix:path=\(tmp.file("no-bus").path)", "--state-dir", state.path,
                             "--camera", "synthetic", "--location", "never"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: state.path), "state directory touched before the bus")
    }

    /// The face cascade and the scripted frames are read by --check-config: a bad one is named.
    func testABadFaceCascadeOrFramesDirectoryIsNamed() throws {
        let cascade = tmp.file("cascade.xml")
        try Data("<opencv_storage><cascade>".utf8).write(to: cascade)
        let bad = try lensd(["--check-config", "--face-cascade", cascade.path])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("face-cascade \(cascade.path): "), bad.stderr)
        let relative = try lensd(["--check-config", "--face-cascade", "cascade.xml"])
        XCTAssertTrue(relative.stderr.contains("face-cascade must be an absolute path"), relative.stderr)
        let good = try lensd(["--check-config", "--face-cascade", "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml"])
        XCTAssertEqual(good.status, 0, good.stderr)

        let frames = tmp.file("frames")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: false)
        let empty = try lensd(["--check-config", "--synthetic-frames", frames.path])
        XCTAssertEqual(empty.status, 2)
        XCTAssertTrue(empty.stderr.contains("synthetic-frames: \(frames.path) holds no .jpg files"), empty.stderr)
        try Data("not a jpeg".utf8).write(to: frames.appendingPathComponent("0.jpg"))
        let broken = try lensd(["--check-config", "--synthetic-frames", frames.path])
        XCTAssertEqual(broken.status, 2)
        XCTAssertTrue(broken.stderr.contains("0.jpg is not a readable JPEG"), broken.stderr)
    }

    /// The time-stamping keys are checked together: a TSA needs roots to check it against, a
    /// policy that asks needs a TSA, and the roots file must hold certificates.
    func testTimeStampingKeysAreCheckedTogether() throws {
        let roots = tmp.file("tsa-roots.pem")
        try Data("not a certificate".utf8).write(to: roots)
        let cases: [([String], String)] = [
            (["--tsa-url", "ftp://tsa.example.org/"], "tsa-url takes http(s) URLs"),
            (["--tsa-url", "http://127.0.0.1:1/"], "tsa-url needs tsa-trust-anchor"),
            (["--timestamp", "required"], "timestamp = required needs tsa-url"),
            (["--timestamp", "always"], "timestamp must be required, when-online or never"),
            (["--tsa-trust-anchor", roots.path], "tsa-trust-anchor \(roots.path)"),
            (["--tsa-timeout", "0"], "tsa-timeout must be a duration of 1...300 s"),
        ]
        for (arguments, message) in cases {
            let run = try lensd(["--check-config"] + arguments)
            XCTAssertEqual(run.status, 2, "\(arguments)")
            XCTAssertTrue(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        let tsa = try LocalTSA(directory: tmp.file("tsa"))
        let good = try lensd(["--check-config", "--tsa-url", "\(tsa.url), http://127.0.0.1:1/", "--tsa-trust-anchor", tsa.root.path,
                              "--timestamp", "required"])
        XCTAssertEqual(good.status, 0, good.stderr)
    }

    /// The EST keys (issue 30): enrollment = est needs its server and the organization's root;
    /// est-url must be an EST base over https; the keys mean nothing with another enrollment.
    func testESTKeysAreCheckedTogether() throws {
        let anchor = ["--org-trust-anchor", "/etc/lensd/org-root.pem"]
        let cases: [([String], String)] = [
            (["--enrollment", "est"] + anchor, "enrollment = est needs est-url"),
            (["--enrollment", "est", "--est-url", "https://est.example.org/.well-known/est"], "enrollment = est needs org-trust-anchor"),
            (["--enrollment", "est", "--est-url", "http://est.example.org/.well-known/est"] + anchor, "est-url takes https://HOST[:PORT]/.well-known/est"),
            (["--enrollment", "est", "--est-url", "https://est.example.org/enroll"] + anchor, "est-url takes https://HOST[:PORT]/.well-known/est"),
            (["--est-url", "https://est.example.org/.well-known/est"], "est-url, est-ca and est-credential-file are read only with enrollment = est"),
            (["--enrollment", "est", "--est-credential-file", "est-credential"] + anchor, "est-credential-file must be an absolute path"),
            (["--enrollment", "fleet"], "enrollment must be self, org or est"),
        ]
        for (arguments, message) in cases {
            let run = try lensd(["--check-config"] + arguments)
            XCTAssertEqual(run.status, 2, "\(arguments)")
            XCTAssertTrue(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        let good = try lensd(["--check-config", "--enrollment", "est", "--est-url", "https://est.example.org/.well-known/est/cameras",
                              "--est-ca", "/etc/lensd/est-root.pem", "--est-credential-file", "/etc/lensd/est-credential"] + anchor)
        XCTAssertEqual(good.status, 0, good.stderr)
    }
}
