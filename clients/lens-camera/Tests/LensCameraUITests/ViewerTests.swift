import Foundation
import LensTestSupport
import XCTest

/// The last result, as GNOME Snapshot shows it: no strip while there is none, then a round
/// thumbnail at the start of the control bar that opens a viewer of its own — inside the window,
/// with the manifest's words — which opens the photo in the user's image viewer (the desktop's
/// default application for JPEG, found by GIO as on any desktop) and deletes it: lensd's copy, and
/// the kept file into the trash.
final class ViewerTests: LensCameraTestCase {
    override var appIsAccessible: Bool { true }

    static let viewerBar = Screenshot.Rect(x: 5, y: 51, width: 790, height: 46)
    static let openButton = (x: 687, y: 74)
    static let deleteButton = (x: 771, y: 74)

    private var home: URL { tmp.file("home-\(appUser)") }
    private var opened: URL { home.appendingPathComponent("opened-with-the-image-viewer") }

    /// The member's image viewer: a desktop entry, default for JPEG in ~/.config/mimeapps.list,
    /// whose program writes down what it was asked to open.
    override func beforeApp() throws {
        let applications = home.appendingPathComponent(".local/share/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".config"), withIntermediateDirectories: true)
        let viewer = home.appendingPathComponent("image-viewer")
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '\(opened.path)'\n".write(to: viewer, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: viewer.path)
        try """
            [Desktop Entry]
            Type=Application
            Name=Test Image Viewer
            Exec=\(viewer.path) %f
            MimeType=image/jpeg;
            """.write(to: applications.appendingPathComponent("test-image-viewer.desktop"), atomically: true, encoding: .utf8)
        try "[Default Applications]\nimage/jpeg=test-image-viewer.desktop\n"
            .write(to: home.appendingPathComponent(".config/mimeapps.list"), atomically: true, encoding: .utf8)
        _ = try runProcess(["chown", "-R", "\(appUser):", home.path])
    }

    func testTheLastResultOpensAViewerThatOpensAndDeletesIt() throws {
        let empty = try waitForPreview()
        // No result yet: the preview reaches down to the control bar, no empty strip between.
        let aboveBar = Screenshot.Rect(x: 5, y: Layout.controlBar.y - 60, width: 60, height: 60)
        XCTAssertEqual(empty.count(near: Screenshot.Pixel(red: 0, green: 0, blue: 0), tolerance: 0, in: aboveBar), 3600,
                       "the preview's black bars, not a strip")
        XCTAssertEqual(empty.distinctColors(in: Layout.lastResult), 1, "no thumbnail before the first result")

        try person.click(x: Layout.captureButton.x, y: Layout.captureButton.y)
        try waitForScreen("verified") { $0.count(near: CaptureTests.verifiedGreen, tolerance: 12, in: Layout.lastResult) > 40 }
        let kept = try XCTUnwrap(keptFiles("Pictures", extension: "jpg").first)

        try person.click(x: Layout.lastResultButton.x, y: Layout.lastResultButton.y)
        let viewer = try waitForScreen("viewer") { !$0.showsCameraPage && $0.distinctColors(in: Layout.preview) > 50 }
        // Everything inside the window: nothing drawn right of it (the old details popover was).
        XCTAssertEqual(viewer.distinctColors(in: Layout.outsideWindow), 1)
        let details = try app.accessibleTree().first { $0.description == "What the manifest says" }?.name ?? ""
        XCTAssertTrue(details.hasPrefix("Verified: signed by a device this lensd trusts\nSigned by: C=XX, O=lensd"), details)
        XCTAssertTrue(details.hasSuffix("Kept in: \(kept.path)"), details)

        try person.click(x: Self.openButton.x, y: Self.openButton.y)
        try waitFor("the image viewer to be started with the photo") {
            (try? String(contentsOf: opened, encoding: .utf8)) == kept.path + "\n"
        }

        let stored = try XCTUnwrap(storedResults().first)
        try person.click(x: Self.deleteButton.x, y: Self.deleteButton.y)
        try waitForScreen("deleted") { $0.showsCameraPage && $0.distinctColors(in: Layout.lastResult) == 1 }
        XCTAssertFalse(FileManager.default.fileExists(atPath: kept.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/share/Trash/files/\(kept.lastPathComponent)").path),
                      "the kept photo is in the trash")
        try waitFor("lensd to delete its copy") { !FileManager.default.fileExists(atPath: stored.path) }
    }

    /// lensd's stored results of the app's user: <state>/results/<uid>/NAME.jpg.
    private func storedResults() throws -> [URL] {
        let folder = daemon.stateDirectory.appendingPathComponent("results/\(try TestUsers.uid(appUser))")
        return ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "jpg" }
    }
}
