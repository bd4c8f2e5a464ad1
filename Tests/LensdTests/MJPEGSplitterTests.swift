import LensClient
import XCTest

/// LensClient's MJPEGSplitter on byte streams built to trip a naive "split at FF D9" reader:
/// an EOI's bytes inside a comment, stuffed FF00 and restart markers in the entropy data, and
/// frames arriving in pieces of every size.
final class MJPEGSplitterTests: XCTestCase {
    /// SOI, a COM segment, a minimal SOS header, `scan` as entropy-coded data, EOI.
    private func frame(comment: [UInt8], scan: [UInt8]) -> [UInt8] {
        let sos: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        return [0xFF, 0xD8, 0xFF, 0xFE, UInt8((comment.count + 2) >> 8), UInt8((comment.count + 2) & 0xFF)]
            + comment + sos + scan + [0xFF, 0xD9]
    }

    func testFramesComeOutWholeWhateverTheChunks() throws {
        let frames = [
            frame(comment: Array("lensd-preview seq=1 pts_us=10 \u{FF}\u{D9}".utf8) + [0xFF, 0xD9], scan: [0x12, 0xFF, 0x00, 0x34]),
            frame(comment: Array("lensd-preview seq=2 pts_us=20".utf8), scan: [0xFF, 0xD0, 0x56, 0xFF, 0xFF, 0xD7, 0x00]),
            frame(comment: [], scan: [0xFF, 0x00, 0xFF, 0x00]),
        ]
        let stream = frames.flatMap { $0 }
        for chunkSize in [1, 2, 3, 7, 64, stream.count] {
            var splitter = MJPEGSplitter()
            var out: [[UInt8]] = []
            var at = 0
            while at < stream.count {
                out += try splitter.append(stream[at..<min(at + chunkSize, stream.count)])
                at += chunkSize
            }
            XCTAssertEqual(out, frames, "chunks of \(chunkSize)")
            XCTAssertEqual(splitter.pendingByteCount, 0)
        }
        XCTAssertEqual(try LensPreviewFrame(jpeg: frames[1]).sequence, 2)
        XCTAssertEqual(try LensPreviewFrame(jpeg: frames[1]).timestampMicroseconds, 20)
        XCTAssertThrowsError(try LensPreviewFrame(jpeg: frames[2]), "no lensd-preview comment")
    }

    func testMalformedStreamsAreRefused() {
        var splitter = MJPEGSplitter()
        XCTAssertThrowsError(try splitter.append([0x00, 0x01, 0x02]))
        var broken = MJPEGSplitter()
        XCTAssertThrowsError(try broken.append([0xFF, 0xD8, 0x12, 0x34]), "no marker after SOI")
        var endless = MJPEGSplitter()
        let scan = frame(comment: [], scan: []).dropLast(2)
        XCTAssertThrowsError(try endless.append(Array(scan) + [UInt8](repeating: 0x11, count: MJPEGSplitter.maximumFrameBytes)))
    }
}
