import Foundation
import LensTestSupport
import XCTest

/// A failure shows as a banner until the user dismisses it, saying what failed and how to fix it:
/// here the folder the app keeps photos in is not writable for the user.
final class ErrorBannerTests: LensCameraTestCase {
    static let bannerRed = Screenshot.Pixel(red: 0xc0, green: 0x1c, blue: 0x28)
    static let top = Screenshot.Rect(x: 5, y: 51, width: 790, height: 40)

    override var appIsAccessible: Bool { true }

    private var folder: URL { tmp.file("home-\(appUser)/Pictures/Lens Camera") }

    /// ~/Pictures/Lens Camera exists, owned by root and read-only.
    override func beforeApp() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
    }

    func testAFailureShowsABannerThatSaysHowToFixItUntilDismissed() throws {
        try waitForPreview()
        try person.click(x: Layout.captureButton.x, y: Layout.captureButton.y)
        let shown = try waitForScreen("banner") { $0.count(near: Self.bannerRed, tolerance: 8, in: Self.top) > 8000 }
        XCTAssertTrue(keptFiles("Pictures", extension: "jpg").isEmpty)
        // The thumbnail is marked as not kept (a red badge) rather than left waiting.
        XCTAssertGreaterThan(shown.count(near: Self.bannerRed, tolerance: 8, in: Layout.lastResult), 40)
        // What failed, where, and what to do — not Foundation's "You don't have permission."
        let words = try app.accessibleTree().map(\.name).first { $0.hasPrefix("Could not keep the photo") } ?? ""
        XCTAssertTrue(words.contains("You may not write to the folder \(folder.path)."), words)
        XCTAssertTrue(words.contains("chmod u+w"), words)
        XCTAssertTrue(words.contains("lensd still has it: lensctl results lists it."), words)
        XCTAssertFalse(words.contains("The operation could not be completed"), words)
        // The Dismiss button sits at the banner's right end, halfway down it.
        let height = (Self.top.y..<(Self.top.y + 200)).last { shown.pixel(x: 8, y: $0) == Self.bannerRed }.map { $0 - Self.top.y } ?? 0
        XCTAssertGreaterThan(height, 20)
        try person.click(x: 755, y: Self.top.y + height / 2)
        try waitForScreen("dismissed") { $0.count(near: Self.bannerRed, tolerance: 8, in: Self.top) == 0 }
    }
}
