import Foundation
import LensClient
import LensTestSupport
import XCTest

/// LensClient's preview against lensd on the private bus: frames as an AsyncSequence, the raw
/// descriptor for other readers, and the end of the preview when the object goes.
final class ClientPreviewTests: LensdTestCase {
    override var daemonArguments: [String] { super.daemonArguments + ["--synthetic-size", "1280x720"] }

    private func camera() throws -> LensCamera {
        let camera = try LensCamera(bus: .address(bus.address), delegateQueue: DispatchQueue(label: "preview-test"))
        try camera.startCaptureSession()
        return camera
    }

    func testFramesArriveAsAnAsyncSequenceAtTheAnnouncedSize() async throws {
        let camera = try camera()
        let preview = try camera.openPreview(size: (320, 320), fps: 15, quality: 50)
        let format = preview.format
        XCTAssertEqual([format.width, format.height], [320, 180])
        XCTAssertEqual(format.fps, 15)
        XCTAssertEqual([format.mime, format.framing], ["image/jpeg", "mjpeg"])
        var frames: [LensPreviewFrame] = []
        for try await frame in preview {
            frames.append(frame)
            if frames.count == 5 { break }
        }
        XCTAssertEqual(frames.count, 5)
        for frame in frames {
            let size = try jpegDimensions(frame.jpeg)
            XCTAssertTrue(size == (320, 180), "\(size)")
        }
        XCTAssertEqual(frames.map(\.sequence), frames.map(\.sequence).sorted())
        XCTAssertEqual(frames.map(\.timestampMicroseconds), frames.map(\.timestampMicroseconds).sorted())
        XCTAssertTrue(try camera.isPreviewActive)
        XCTAssertThrowsError(try camera.openPreview(quality: 0)) {
            guard case .invalidArgument = $0 as? LensClientError else { return XCTFail("\($0)") }
        }
    }

    func testReleasingThePreviewEndsItAndANewOneReplacesTheOld() async throws {
        let camera = try camera()
        var first: LensPreview? = try camera.openPreview()
        var iterator = first!.makeAsyncIterator()
        _ = try await iterator.next()
        // The raw descriptor of a second preview, read as another program would; the first ends.
        var second: LensPreview? = try camera.openPreview(size: (160, 160))
        let descriptor = try XCTUnwrap(second?.descriptor)
        while try await iterator.next() != nil {}
        first = nil
        var splitter = MJPEGSplitter()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var frames: [[UInt8]] = []
        while frames.isEmpty {
            let count = read(descriptor.rawValue, &chunk, chunk.count)
            XCTAssertGreaterThan(count, 0)
            guard count > 0 else { return }
            frames += try splitter.append(chunk[..<count])
        }
        XCTAssertEqual(try jpegDimensions(frames[0]).width, 160)
        XCTAssertTrue(try camera.isPreviewActive, "releasing the replaced preview leaves the new one alone")

        // Letting go of the second ends the preview in lensd (at its next frame).
        second = nil
        let deadline = Date().addingTimeInterval(20)
        while try camera.isPreviewActive, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        XCTAssertFalse(try camera.isPreviewActive)
    }

    func testAPreviewNeedsTheClaim() throws {
        let camera = try LensCamera(bus: .address(bus.address), delegateQueue: DispatchQueue(label: "preview-test"))
        XCTAssertThrowsError(try camera.openPreview()) {
            guard case .notStarted = $0 as? LensClientError else { return XCTFail("\($0)") }
        }
    }
}
