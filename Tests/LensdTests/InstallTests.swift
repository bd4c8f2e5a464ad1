import Foundation
import LensTestSupport
import XCTest

/// `make install DESTDIR=…` puts every file where a distribution would, and the unit passes
/// systemd's own checks. (The test installs the debug binaries it was built with.)
final class InstallTests: XCTestCase {
    func testInstalledTreeAndHardenedUnit() throws {
        let root = try TemporaryDirectory(prefix: "lensd-install")
        let make = try runProcess(["make", "-C", TestTools.repoRoot.path, "install", "DESTDIR=\(root.url.path)",
                                   "BIN=\(TestTools.buildDirectory.path)"])
        XCTAssertEqual(make.status, 0, String(decoding: make.stderr, as: UTF8.self))
        let expected = [
            "usr/libexec/lensd", "usr/bin/lensctl", "usr/lib/systemd/system/lensd.service",
            "usr/lib/sysusers.d/lensd.conf", "usr/lib/tmpfiles.d/lensd.conf",
            "usr/share/dbus-1/system.d/org.lensd.Lens1.conf",
            "usr/share/dbus-1/system-services/org.lensd.Lens1.service",
            "usr/share/dbus-1/interfaces/org.lensd.Lens1.xml", "etc/lensd/lensd.conf",
            // The face instructions' catalogs, compiled from po/ by msgfmt.
            "usr/share/locale/de/LC_MESSAGES/lensd.mo", "usr/share/locale/fr/LC_MESSAGES/lensd.mo",
        ]
        for path in expected {
            XCTAssertTrue(FileManager.default.fileExists(atPath: root.file(path).path), "missing \(path)")
        }
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: root.file("usr/libexec/lensd").path))

        // verify checks that ExecStart exists: point it at the installed binary inside DESTDIR.
        let unit = try String(contentsOf: root.file("usr/lib/systemd/system/lensd.service"), encoding: .utf8)
        let relocated = root.file("lensd.service")
        try unit.replacingOccurrences(of: "ExecStart=/usr/libexec/lensd", with: "ExecStart=\(root.file("usr/libexec/lensd").path)")
            .write(to: relocated, atomically: true, encoding: .utf8)
        let verify = try runProcess(["systemd-analyze", "verify", "--man=no", relocated.path])
        XCTAssertEqual(verify.status, 0, String(decoding: verify.stderr, as: UTF8.self))

        let security = try runProcess(["systemd-analyze", "security", "--offline=true", "--no-pager", relocated.path])
        let report = String(decoding: security.stdout, as: UTF8.self)
        let exposure = report.split(separator: "\n").first { $0.contains("Overall exposure level") }
            .flatMap { $0.split(separator: ":").last?.split(separator: " ").first }.flatMap { Double($0) }
        XCTAssertLessThanOrEqual(try XCTUnwrap(exposure, report), 1.5)
        // Every remaining deduction is explained in a comment of the unit.
        let comments = unit.split(separator: "\n").filter { $0.hasPrefix("#") }.joined(separator: " ")
        for row in report.split(separator: "\n") where row.hasPrefix("✗") {
            let setting = row.dropFirst(2).split(separator: " ").first.map(String.init) ?? ""
            let names = setting.split(whereSeparator: { "=~/()|*".contains($0) }).map(String.init).filter { !$0.isEmpty }
            XCTAssertTrue(names.contains { comments.contains($0) } && comments.contains("deduction"),
                          "unexplained deduction: \(row)")
        }
    }

    /// A second install keeps the administrator's lensd.conf (the default lands beside it);
    /// uninstall removes every installed file but keeps that changed configuration.
    func testReinstallKeepsTheConfigurationAndUninstallRemovesTheRest() throws {
        let root = try TemporaryDirectory(prefix: "lensd-install")
        let make = { (target: String) throws -> Void in
            let run = try runProcess(["make", "-s", "-C", TestTools.repoRoot.path, target, "DESTDIR=\(root.url.path)",
                                      "BIN=\(TestTools.buildDirectory.path)"])
            XCTAssertEqual(run.status, 0, "make \(target): " + String(decoding: run.stderr, as: UTF8.self))
        }
        try make("install")
        let conf = root.file("etc/lensd/lensd.conf")
        let edited = "camera synthetic\n"
        try edited.write(to: conf, atomically: true, encoding: .utf8)
        try make("install")
        XCTAssertEqual(try String(contentsOf: conf, encoding: .utf8), edited)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.file("etc/lensd/lensd.conf.default").path))

        try make("uninstall")
        let left = try FileManager.default.subpathsOfDirectory(atPath: root.url.path).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.file($0).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        XCTAssertEqual(left, ["etc/lensd/lensd.conf"])
    }

    /// `make install` never builds: without the binaries it says to run `make` first.
    func testInstallDoesNotBuild() throws {
        let root = try TemporaryDirectory(prefix: "lensd-install")
        let run = try runProcess(["make", "-s", "-C", TestTools.repoRoot.path, "install", "DESTDIR=\(root.url.path)",
                                  "BIN=\(root.url.path)/no-build"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(String(decoding: run.stderr, as: UTF8.self).contains("run 'make' first"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.url.path), [])
    }

    /// `make dist`: a source tarball of the committed tree and a SHA256SUMS that `sha256sum -c` accepts.
    func testDistTarballAndItsChecksum() throws {
        let out = try TemporaryDirectory(prefix: "lensd-dist")
        let make = try runProcess(["make", "-s", "-C", TestTools.repoRoot.path, "dist", "DISTDIR=\(out.url.path)"])
        XCTAssertEqual(make.status, 0, String(decoding: make.stderr, as: UTF8.self))
        let check = try runProcess(["bash", "-c", "cd \"$1\" && sha256sum -c SHA256SUMS", "check", out.url.path])
        XCTAssertEqual(check.status, 0, String(decoding: check.stdout + check.stderr, as: UTF8.self))
        let tarball = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: out.url.path).first { $0.hasSuffix(".tar.gz") })
        let listing = String(decoding: try runProcess(["tar", "-tzf", out.file(tarball).path]).stdout, as: UTF8.self)
        let prefix = String(tarball.dropLast(".tar.gz".count)) + "/"
        XCTAssertTrue(listing.contains(prefix + "Package.swift\n") && listing.contains(prefix + "scripts/test\n"), listing)
        XCTAssertFalse(listing.contains(".build/") || listing.contains(".venv/"), listing)
        // A changed byte in the tarball fails the check.
        let handle = try FileHandle(forUpdating: out.file(tarball))
        try handle.seek(toOffset: 100)
        let byte = try XCTUnwrap(try handle.read(upToCount: 1)).first!
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: [byte ^ 0xFF])
        try handle.close()
        XCTAssertNotEqual(try runProcess(["bash", "-c", "cd \"$1\" && sha256sum -c SHA256SUMS", "check", out.url.path]).status, 0)
    }
}
