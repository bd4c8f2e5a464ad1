import Foundation
import LensTestSupport
import XCTest

/// The main job, as a person does it: the preview runs, a click on the capture button gives the
/// round thumbnail of the last result and then its verified badge, and the photo the app kept is
/// Trusted by c2pa-python.
final class CaptureTests: LensCameraTestCase {
    /// The recording clock is also read as a screen reader reads it.
    override var appIsAccessible: Bool { true }

    static let verifiedGreen = Screenshot.Pixel(red: 0x26, green: 0xa2, blue: 0x69)
    static let recordRed = Screenshot.Pixel(red: 0xe0, green: 0x1b, blue: 0x24)
    static let recordingLabelRed = Screenshot.Pixel(red: 0xc0, green: 0x1c, blue: 0x28)
    /// The recording label, centred at the top of the preview, and the text inside its opaque
    /// background (the preview moves around the label, not inside it).
    static let recordingLabel = Screenshot.Rect(x: 340, y: 51, width: 120, height: 48)
    static let recordingText = Screenshot.Rect(x: 366, y: 63, width: 68, height: 16)
    static let captureButtonArea = Screenshot.Rect(x: 380, y: 527, width: 40, height: 40)

    func testThePreviewIsLiveAndOnlyThePreviewChanges() throws {
        let first = try waitForPreview()
        // The synthetic camera's frame counter moves: the preview must change (by the liveness deadline).
        let second = try waitForScreen("preview-changed") { $0.differingPixels(from: first, in: Layout.preview) > 500 }
        XCTAssertEqual(second.differingPixels(from: first, in: Layout.controlBar), 0)
        XCTAssertEqual(second.differingPixels(from: first, in: Layout.headerBar), 0)
    }

    /// Made larger, the window's preview grows: the frame (fit into 990×548 now: 731 px wide
    /// from x = 134) shows where the 800-pixel window ended, and the control bar stays at the bottom.
    func testThePreviewFollowsTheWindowsSize() throws {
        try waitForPreview()
        try person.resizeWindow(named: "^Lens Camera$", width: 1000, height: 700)
        try waitForScreen("resized") { shot in
            shot.pixel(x: 8, y: 700 - 5 - 96 + 4) == Screenshot.Pixel(red: 0x1e, green: 0x1e, blue: 0x1e)
                && shot.distinctColors(in: Screenshot.Rect(x: 800, y: 51, width: 40, height: 540)) > 5
        }
    }

    func testClickingCaptureGivesAThumbnailThenTheVerifiedBadge() throws {
        let before = try waitForPreview()
        XCTAssertEqual(before.pixel(x: Layout.captureButton.x, y: Layout.captureButton.y),
                       Screenshot.Pixel(red: 255, green: 255, blue: 255), "the photo mode's white capture button")
        try person.click(x: Layout.captureButton.x, y: Layout.captureButton.y)
        try waitForScreen("thumbnail") { $0.distinctColors(in: Layout.lastResult) > 30 }
        try waitForScreen("verified") { $0.count(near: Self.verifiedGreen, tolerance: 12, in: Layout.lastResult) > 40 }
        let kept = keptFiles("Pictures", extension: "jpg")
        XCTAssertEqual(kept.count, 1, "one photo kept in ~/Pictures/Lens Camera")
        for photo in kept { try ReferenceValidator.assertTrusted(photo, anchors: [trustAnchorFile()]) }
    }

    func testVideoModeRecordsWithARunningClockAndKeepsATrustedVideo() throws {
        try waitForPreview()
        try person.press("v")
        try waitForScreen("video-mode") { $0.count(near: Self.recordRed, tolerance: 12, in: Self.captureButtonArea) > 400 }
        try person.click(x: Layout.captureButton.x, y: Layout.captureButton.y)
        let started = try waitForScreen("recording") { $0.count(near: Self.recordingLabelRed, tolerance: 12, in: Self.recordingLabel) > 200 }
        // The label reads 00:00 at the start; it must change as lensd reports the duration.
        try waitForScreen("clock-advanced", timeout: 10) {
            $0.differingPixels(from: started, in: Self.recordingText) > 10
                && $0.count(near: Self.recordingLabelRed, tolerance: 12, in: Self.recordingLabel) > 200
        }
        // The label's words, over AT-SPI: "● mm:ss" past the start.
        let clock = try app.accessibleTree().first { $0.description == "Recording duration" }?.name ?? ""
        let seconds = clock.split(separator: " ").last.flatMap { part -> Int? in
            let fields = part.split(separator: ":").compactMap { Int($0) }
            return fields.count == 2 ? fields[0] * 60 + fields[1] : nil
        }
        XCTAssertGreaterThanOrEqual(seconds ?? -1, 1, "the clock reads \(clock)")
        try person.click(x: Layout.captureButton.x, y: Layout.captureButton.y)
        try waitForScreen("video-thumbnail") { $0.distinctColors(in: Layout.lastResult) > 30 }
        try waitForScreen("video-verified") { $0.count(near: Self.verifiedGreen, tolerance: 12, in: Layout.lastResult) > 40 }
        let kept = keptFiles("Videos", extension: "mp4")
        XCTAssertEqual(kept.count, 1, "one video kept in ~/Videos/Lens Camera")
        for video in kept { try ReferenceValidator.assertTrusted(video, anchors: [trustAnchorFile()]) }
    }
}
