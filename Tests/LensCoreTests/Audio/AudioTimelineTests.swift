@testable import LensCore
@testable import LensMedia
import XCTest

/// Sound is placed by its capture time: gaps become silence, overlaps and sound before the first
/// video frame are dropped, jitter is ignored, so a sample's position never drifts from its time.
final class AudioTimelineTests: XCTestCase {
    private let origin = 1000.0

    func testContiguousSoundFromTheOriginIsPlacedAsItIs() {
        var timeline = AudioTimeline(channels: 1, origin: origin)
        let tone = AudioTestMedia.tone(frequency: 440, frames: 1920)
        timeline.place(tone[..<480], capturedAt: origin)
        timeline.place(tone[480...], capturedAt: origin + 0.01)
        XCTAssertEqual(timeline.nextFrame(), Array(tone[..<960]))
        XCTAssertEqual(timeline.nextFrame(), Array(tone[960...]))
        XCTAssertNil(timeline.nextFrame())
        XCTAssertEqual(timeline.silence, 0)
    }

    func testSoundBeforeTheOriginIsCut() {
        var timeline = AudioTimeline(channels: 2, origin: origin)
        let tone = AudioTestMedia.tone(frequency: 440, frames: 1440, channels: 2)
        timeline.place(tone[...], capturedAt: origin - 0.01)  // 480 frames early
        XCTAssertEqual(timeline.position, 960)
        XCTAssertEqual(timeline.nextFrame(), Array(tone[960...]))
    }

    func testAGapBecomesSilenceAndTheSoundAfterItKeepsItsTime() {
        var timeline = AudioTimeline(channels: 1, origin: origin)
        let tone = AudioTestMedia.tone(frequency: 440, frames: 960)
        XCTAssertEqual(timeline.place(tone[..<480], capturedAt: origin), 0)
        // An overrun lost 490 ms: place says how much silence stands for it (lensd logs it).
        XCTAssertEqual(timeline.place(tone[480...], capturedAt: origin + 0.5), 24_000 - 480)
        XCTAssertEqual(timeline.silence, 24_000 - 480)
        XCTAssertEqual(timeline.position, 24_000 + 480)
        timeline.fillSilence(to: 24_960)  // to a whole frame
        var frames: [[Int16]] = []
        while let frame = timeline.nextFrame() { frames.append(frame) }
        let placed = frames.flatMap { $0 }
        XCTAssertEqual(Array(placed[24_000..<24_480]), Array(tone[480...]))
        XCTAssertTrue(placed[480..<24_000].allSatisfy { $0 == 0 })
    }

    func testJitterWithinTenMillisecondsIsIgnoredAndOverlapsBeyondAreDropped() {
        var timeline = AudioTimeline(channels: 1, origin: origin)
        let tone = AudioTestMedia.tone(frequency: 440, frames: 3360)
        timeline.place(tone[..<960], capturedAt: origin)
        timeline.place(tone[960..<1440], capturedAt: origin + 0.025)  // 5 ms late: jitter
        XCTAssertEqual(timeline.position, 1440)
        XCTAssertEqual(timeline.silence, 0)
        // 1920 frames stamped at 10 ms, 20 ms before the end of what is placed: that overlap goes.
        timeline.place(tone[1440...], capturedAt: origin + 0.01)
        XCTAssertEqual(timeline.position, 2400)
        _ = timeline.nextFrame()
        XCTAssertEqual(timeline.nextFrame(), Array(tone[960..<1440]) + Array(tone[2400..<2880]))
    }

    func testSilenceFillsToATarget() {
        var timeline = AudioTimeline(channels: 1, origin: origin)
        timeline.fillSilence(to: 1920)
        XCTAssertEqual(timeline.nextFrame(), [Int16](repeating: 0, count: 960))
        XCTAssertEqual(timeline.nextFrame(), [Int16](repeating: 0, count: 960))
        timeline.fillSilence(to: 100)
        XCTAssertNil(timeline.nextFrame())
    }
}
