import Foundation
import LensTestSupport
import XCTest

/// `make install-app` puts the app, its catalogs, desktop entry, icon and AppStream metainfo where a
/// distribution would, and they pass the freedesktop validators; `make install` leaves the app
/// out. (The test installs the debug binaries it was built with.)
final class InstallAppTests: XCTestCase {
    static let appFiles = [
        "usr/bin/lens-camera", "usr/share/applications/org.lensd.LensCamera.desktop",
        "usr/share/icons/hicolor/scalable/apps/org.lensd.LensCamera.svg",
        "usr/share/icons/hicolor/scalable/actions/org.lensd.LensCamera-flash-symbolic.svg",
        "usr/share/metainfo/org.lensd.LensCamera.metainfo.xml", "usr/share/man/man1/lens-camera.1",
        "usr/share/locale/de/LC_MESSAGES/lens-camera.mo", "usr/share/locale/fr/LC_MESSAGES/lens-camera.mo",
    ]

    func testInstallAppPutsTheDesktopFilesInPlaceAndTheyValidate() throws {
        let root = try TemporaryDirectory(prefix: "lens-camera-install")
        let appBinaries = URL(fileURLWithPath: AppUnderTest.binary).deletingLastPathComponent().path
        try make(["install-app", "DESTDIR=\(root.url.path)", "APP_BIN=\(appBinaries)"])
        for path in Self.appFiles {
            XCTAssertTrue(FileManager.default.fileExists(atPath: root.file(path).path), "missing \(path)")
        }
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: root.file("usr/bin/lens-camera").path))
        try check(["desktop-file-validate", root.file(Self.appFiles[1]).path])
        try check(["appstreamcli", "validate", "--no-net", root.file(Self.appFiles[4]).path])
    }

    func testInstallLeavesTheAppOut() throws {
        let root = try TemporaryDirectory(prefix: "lensd-install")
        let daemonBinaries = ProcessInfo.processInfo.environment["LENSD_TEST_BIN_DIR"]
            ?? TestTools.repoRoot.appendingPathComponent(".build/debug").path
        try make(["install", "DESTDIR=\(root.url.path)", "BIN=\(daemonBinaries)"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.file("usr/bin/lensctl").path), "install ran")
        for path in Self.appFiles {
            XCTAssertFalse(FileManager.default.fileExists(atPath: root.file(path).path), "\(path) installed by make install")
        }
    }

    private func make(_ arguments: [String]) throws {
        try check(["make", "-s", "-C", TestTools.repoRoot.path] + arguments)
    }

    private func check(_ argv: [String]) throws {
        let r = try runProcess(argv)
        XCTAssertEqual(r.status, 0, "\(argv.joined(separator: " ")): \(String(decoding: r.stdout + r.stderr, as: UTF8.self))")
    }
}
