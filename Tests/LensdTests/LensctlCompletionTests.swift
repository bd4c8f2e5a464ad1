import Foundation
import LensTestSupport
import XCTest

/// `make install` puts lensctl's man pages and bash completion in place; the pages render
/// without warnings and the completion completes.
final class LensctlCompletionTests: XCTestCase {
    private var root: TemporaryDirectory!

    override func setUpWithError() throws {
        root = try temporaryDirectory(prefix: "lensctl-install")
        let make = try runProcess(["make", "-C", TestTools.repoRoot.path, "install", "DESTDIR=\(root.url.path)",
                                   "SWIFT_BUILD=true", "BIN=\(TestTools.buildDirectory.path)"])
        XCTAssertEqual(make.status, 0, String(decoding: make.stderr, as: UTF8.self))
    }

    func testManPagesRenderWithoutWarnings() throws {
        for page in ["usr/share/man/man1/lensctl.1", "usr/share/man/man8/lensd.8"] {
            let r = try runProcess(["groff", "-man", "-ww", "-z", root.file(page).path])
            XCTAssertEqual(r.status, 0, page)
            XCTAssertEqual(String(decoding: r.stderr, as: UTF8.self), "", page)
        }
    }

    func testCompletionOffersCommandsOptionsAndValues() throws {
        let cases: [([String], String)] = [
            (["lensctl", ""], "status devices capture record watch set verify trust-anchor trust-list preview outbox detect-faces face-capture results fetch rm enroll --help"),
            (["lensctl", "enroll", ""], "request install status"),
            (["lensctl", "enroll", "request", "--"], "--subject --dns --profile --bus --json --help"),
            (["lensctl", "enroll", "request", "--profile", ""], "c2pa-al1 c2pa-al2"),
            (["lensctl", "face-capture", "--camera-"], "--camera-facing"),
            (["lensctl", "face-capture", "--camera-facing", ""], "front back"),
            (["lensctl", "preview", "--f"], "--fps --frames --force"),
            (["lensctl", "preview", "--size", ""], "320x240 640x480 1280x720"),
            (["lensctl", "outbox", ""], "retry"),
            (["lensctl", "outbox", "retry", "--"], "--bus --json --help"),
            (["lensctl", "detect-faces", "--"], "--cascade --bus --json --help"),
            (["lensctl", "record", "--"], "--duration --timeout --camera --accuracy --force --bus --json --help"),
            (["lensctl", "record", "-o", "clip.mp4", "--du"], "--duration"),
            (["lensctl", "capture", "--fl"], "--flash"),
            (["lensctl", "capture", "--flash", ""], "off on auto"),
            (["lensctl", "--bus", "system", "set", ""], "flash zoom focus camera"),
            (["lensctl", "set", "flash", ""], "off on auto toggle"),
            (["lensctl", "set", "camera", "f"], "front"),
            (["lensctl", "watch", "--"], "--count --duration --bus --json --help"),
            (["lensctl", "capture", "--th"], "--thumbnail"),
            (["lensctl", "trust-anchor", "--"], "--chain --bus --json --help"),
            (["lensctl", "fetch", "-"], "-o --force --bus --json --help"),
            (["lensctl", "rm", "--"], "--bus --json --help"),
            (["lensctl", "verify", "--d"], "--detailed"),
            (["lensctl", "verify", "--tr"], "--trust-anchor --trust-list --trust-config --tree"),
            (["lensctl", "trust-list", ""], "show"),
        ]
        let script = root.file("usr/share/bash-completion/completions/lensctl").path
        for (words, expected) in cases {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let r = try runProcess(["/bin/bash", "-c", """
                source '\(script)'
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
                _lensctl; echo "${COMPREPLY[*]}"
                """])
            XCTAssertEqual(String(decoding: r.stdout, as: UTF8.self), expected + "\n", "\(words)")
        }
    }
}
