import Foundation
import LensTestSupport
import XCTest

/// A failure shows as a banner with the reason until the user dismisses it: here the folder the
/// app keeps photos in is not writable for the user.
final class ErrorBannerTests: LensCameraTestCase {
    static let bannerRed = Screenshot.Pixel(red: 0xc0, green: 0x1c, blue: 0x28)
    static let top = Screenshot.Rect(x: 0, y: 0, width: 800, height: 40)

    /// ~/Pictures/Lens Camera exists, owned by root and read-only.
    override func beforeApp() throws {
        let folder = tmp.file("home-\(appUser)/Pictures/Lens Camera")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
    }

    func testAFailureShowsABannerUntilDismissed() throws {
        try waitForPreview()
        try person.click(x: Layout.captureButton.x, y: Layout.captureButton.y)
        let shown = try waitForScreen("banner") { $0.count(near: Self.bannerRed, tolerance: 8, in: Self.top) > 8000 }
        XCTAssertTrue(keptFiles("Pictures", extension: "jpg").isEmpty)
        // The thumbnail is marked as not kept rather than left waiting.
        XCTAssertGreaterThan(shown.count(near: Self.bannerRed, tolerance: 8, in: Layout.firstThumbnail), 40)
        // The Dismiss button sits at the banner's right end, halfway down it.
        let height = (0..<200).last { shown.pixel(x: 2, y: $0) == Self.bannerRed } ?? 0
        XCTAssertGreaterThan(height, 20)
        try person.click(x: 760, y: height / 2)
        try waitForScreen("dismissed") { $0.count(near: Self.bannerRed, tolerance: 8, in: Self.top) == 0 }
    }
}
