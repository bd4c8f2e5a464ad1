import Foundation
import LensTestSupport
import XCTest

/// `make install DESTDIR=…` puts every file where a distribution would, and the unit passes
/// systemd's own checks. (The test installs the debug binaries it was built with.)
final class InstallTests: XCTestCase {
    func testInstalledTreeAndHardenedUnit() throws {
        let root = try TemporaryDirectory(prefix: "lensd-install")
        let make = try runProcess(["make", "-C", TestTools.repoRoot.path, "install", "DESTDIR=\(root.url.path)",
                                   "SWIFT_BUILD=true", "BIN=\(TestTools.buildDirectory.path)"])
        XCTAssertEqual(make.status, 0, String(decoding: make.stderr, as: UTF8.self))
        let expected = [
            "usr/libexec/lensd", "usr/bin/lensctl", "usr/lib/systemd/system/lensd.service",
            "usr/lib/sysusers.d/lensd.conf", "usr/lib/tmpfiles.d/lensd.conf",
            "usr/share/dbus-1/system.d/org.lensd.Lens1.conf",
            "usr/share/dbus-1/system-services/org.lensd.Lens1.service",
            "usr/share/dbus-1/interfaces/org.lensd.Lens1.xml", "etc/lensd/lensd.conf",
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
}
