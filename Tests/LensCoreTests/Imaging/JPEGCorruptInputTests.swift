import LensImaging
import XCTest
import LensCore

/// Broken or hostile JPEG input must throw, never crash or allocate without bound.
final class JPEGCorruptInputTests: XCTestCase {
    private func assertRejected(_ jpeg: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try JPEGCodec.decodeRGB(jpeg), file: file, line: line)
        XCTAssertThrowsError(try JPEGCodec.thumbnail(fromJPEG: jpeg, maxSide: 320, quality: 80), file: file, line: line)
    }

    func testEmptyAndNonJPEGInputThrow() {
        assertRejected([])
        assertRejected(Array("not a jpeg at all".utf8))
        XCTAssertThrowsError(try JPEGCodec.dimensions(ofJPEG: [0xFF, 0xD8, 0xFF])) { error in
            XCTAssertFalse("\(error)".isEmpty, "the error carries TurboJPEG's text")
        }
    }

    func testTruncatedJPEGThrows() throws {
        let jpeg = try RGBImage.gradient(width: 256, height: 256).encoded()
        // The header survives, so the size is still readable; the pixels are not.
        let truncated = Array(jpeg.prefix(jpeg.count / 2))
        XCTAssertEqual(try JPEGCodec.dimensions(ofJPEG: truncated).width, 256)
        assertRejected(truncated)
    }

    func testForgedHugeSizeIsRefusedBeforeAllocating() throws {
        var jpeg = try RGBImage.gradient(width: 64, height: 64).encoded()
        let frameHeader = try XCTUnwrap(jpeg.indices.dropLast().first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        // SOF0: FFC0, length (2), precision (1), height (2), width (2).
        jpeg.replaceSubrange(frameHeader + 5 ... frameHeader + 8, with: [0xFD, 0xE8, 0xFD, 0xE8])
        XCTAssertEqual(try JPEGCodec.dimensions(ofJPEG: jpeg).width, 65_000)
        assertRejected(jpeg)
    }

    func testRandomDamageNeverCrashes() throws {
        let jpeg = try RGBImage.gradient(width: 96, height: 64).encoded()
        var random = SplitMix64(seed: 42)
        for _ in 0..<300 {
            var damaged = jpeg
            for _ in 0..<Int(random.next() % 8 + 1) {
                damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            // Damage in the entropy-coded data may still decode; then the output must be whole.
            if let decoded = try? JPEGCodec.decodeRGB(damaged) {
                XCTAssertEqual(decoded.rgb.count, decoded.width * decoded.height * 3)
            }
            _ = try? JPEGCodec.thumbnail(fromJPEG: damaged, maxSide: 32, quality: 80)
        }
    }
}

/// A small seeded generator, so a failing damage pattern can be replayed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
