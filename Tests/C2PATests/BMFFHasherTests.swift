import LensTestSupport
import Foundation
import XCTest
@testable import C2PA
@testable import C2PAEncoding

/// The BMFF hasher fed box by box, as the muxer feeds it, against the same hasher reading the
/// finished file (which c2pa-rs agrees with: MP4SigningTests): equal however the bytes come, and
/// an error, never a wrong hash, when a box is missing, out of place or fed short.
final class BMFFHasherTests: XCTestCase {
    var tmp: TemporaryDirectory!

    override func setUpWithError() throws { tmp = try TemporaryDirectory() }
    override func tearDown() { tmp = nil }

    /// A real MP4 with a reserve: ftyp, free, (FFmpeg's own free), mdat, moov.
    private func file() throws -> (url: URL, bytes: [UInt8], boxes: [BMFFBox]) {
        let url = tmp.file("reserved.mp4")
        _ = try TestMP4.withReserve(try TestMP4.make(at: tmp.file("plain.mp4"), .h264MoovLast), size: 4096, into: url)
        let bytes = Array(try Data(contentsOf: url))
        return (url, bytes, try BMFFScanner.children(of: bytes[...], at: 0))
    }

    /// A hasher fed every box before the mdat, whole.
    private func fedUpToMediaData(_ bytes: [UInt8], _ boxes: [BMFFBox], _ hasher: BMFFHasher = BMFFHasher()) throws -> BMFFHasher {
        for box in boxes.prefix(while: { $0.type != "mdat" }) { try hasher.add(box: Array(bytes[box.range]), at: box.offset) }
        return hasher
    }

    func testStreamedBoxesHashLikeTheFile() throws {
        let (url, bytes, boxes) = try file()
        XCTAssertEqual(boxes.map(\.type).filter { $0 != "free" }, ["ftyp", "mdat", "moov"])
        let expected = try BMFFHasher.hash(fileAt: url.path)

        let whole = BMFFHasher()
        for box in boxes { try whole.add(box: Array(bytes[box.range]), at: box.offset) }
        XCTAssertEqual(try whole.finalize(), expected)

        // Headers alone first, the rest in pieces that do not line up with anything; the free box
        // by its header only, as the muxer feeds the boxes it retires.
        for chunk in [1, 7, 1000] {
            let streamed = BMFFHasher()
            for box in boxes {
                try streamed.begin(head: Array(bytes[box.offset..<box.payload.lowerBound]), at: box.offset)
                guard box.type != "free" else { continue }
                for start in stride(from: box.payload.lowerBound, to: box.end, by: chunk) {
                    try streamed.update(Array(bytes[start..<min(start + chunk, box.end)]))
                }
            }
            XCTAssertEqual(try streamed.finalize(), expected, "chunks of \(chunk)")
        }
    }

    /// Subsets cut out of a streamed box are left out wherever the pieces fall.
    func testSubsetsAreCutFromStreamedBytes() throws {
        let (url, bytes, boxes) = try file()
        let exclusions = BMFFHashAssertion.standardExclusions
            + [.init(xpath: "/mdat", subset: [.init(offset: 10, length: 300), .init(offset: 1000, length: 0)])]
        let handle = try POSIXFile(path: url.path, flags: O_RDONLY)
        let expected = try BMFFHasher.digest(of: handle, boxes: boxes, exclusions: exclusions, algorithm: .sha256)
        XCTAssertNotEqual(expected, try BMFFHasher.hash(fileAt: url.path), "the subsets must cut something")
        let streamed = BMFFHasher(exclusions: exclusions, algorithm: .sha256, offsets: true)
        for box in boxes {
            try streamed.begin(head: Array(bytes[box.offset..<box.payload.lowerBound]), at: box.offset)
            for start in stride(from: box.payload.lowerBound, to: box.end, by: 97) {
                try streamed.update(Array(bytes[start..<min(start + 97, box.end)]))
            }
        }
        XCTAssertEqual(try streamed.finalize(), expected)
    }

    func testBoxesFedOutOfPlaceOrShortThrow() throws {
        let (_, bytes, boxes) = try file()
        let ftyp = Array(bytes[boxes[0].range]), mdat = boxes.first { $0.type == "mdat" }!
        let mdatHeader = Array(bytes[mdat.offset..<mdat.payload.lowerBound])
        let started = BMFFHasher()
        try started.add(box: ftyp, at: 0)
        // A box skipped (the reserve), or placed where the last one does not end.
        XCTAssertThrowsError(try started.begin(head: mdatHeader, at: mdat.offset)) { error in
            guard case C2PAError.malformed = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try started.add(box: Array(bytes[boxes[1].range]), at: boxes[1].offset + 1))
        // A whole box that is not whole.
        XCTAssertThrowsError(try started.add(box: Array(bytes[boxes[1].range].dropLast()), at: boxes[1].offset))
        // A hashed box fed short: at the next box, and at the end.
        let short = try fedUpToMediaData(bytes, boxes)
        try short.begin(head: mdatHeader, at: mdat.offset)
        try short.update(Array(bytes[mdat.payload.lowerBound..<(mdat.end - 1)]))
        XCTAssertThrowsError(try short.finalize())
        XCTAssertThrowsError(try short.begin(head: Array(bytes[boxes.last!.range]), at: mdat.end))
        // More bytes than the box holds.
        XCTAssertThrowsError(try short.update([1, 2]))
        try short.update([bytes[mdat.end - 1]])
        try short.add(box: Array(bytes[boxes.last!.range]), at: mdat.end)
        XCTAssertEqual(try short.finalize(), try BMFFHasher.hash(fileAt: tmp.file("reserved.mp4").path), "every box fed in the end")
    }

    /// Exclusions that look past the head given, and boxes that run "to the end of the file",
    /// cannot be decided while streaming.
    func testWhatStreamingCannotDecideThrows() throws {
        let (_, bytes, boxes) = try file()
        let mdat = boxes.first { $0.type == "mdat" }!
        let lookingInside = try fedUpToMediaData(bytes, boxes, BMFFHasher(exclusions: [.init(xpath: "/mdat", data: [.init(offset: 100, value: [0])])],
                                                                          algorithm: .sha256, offsets: true))
        XCTAssertThrowsError(try lookingInside.begin(head: Array(bytes[mdat.offset..<mdat.payload.lowerBound]), at: mdat.offset)) { error in
            guard case C2PAError.unsupported = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try BMFFHasher().begin(head: [0, 0, 0, 0] + Array("mdat".utf8), at: 0)) { error in
            guard case C2PAError.unsupported = error else { return XCTFail("\(error)") }
        }
    }
}
