import Foundation
import LensCore
import LensMedia
import LensTestSupport
import XCTest

/// Recovery reads files a crash (or anyone able to write the directory) left: it must throw, never
/// trap or allocate what a size field claims, and leave a file it refuses as it was.
final class MP4HostileInputTests: XCTestCase {
    /// ftyp 28 + reserve 65536: where the journal moov starts in an MJPEG journal.
    private let journalMovieOffset = 28 + 65536

    func testEmptyFileThrows() throws {
        try assertRefused(Data(), .notLensdFile)
    }

    func testNonLensdFilesThrow() throws {
        try assertRefused(Data(try MP4TestMedia.jpegFrames(count: 1)[0].data), .notLensdFile)
        try assertRefused(Data("not a video at all, just some text that is long enough".utf8), .notLensdFile)
        // A well-formed MP4 from another muxer.
        let directory = try TemporaryDirectory(prefix: "lensd-mp4")
        let other = directory.file("other.mp4").path
        let made = try runProcess(["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10",
                                   "-t", "1", "-c:v", "mjpeg", other])
        XCTAssertEqual(made.status, 0)
        try assertRefused(try Data(contentsOf: URL(fileURLWithPath: other)), .notLensdFile)
    }

    func testBadJournalMoovSizesThrow() throws {
        for size: UInt32 in [0, 7, 0xFFFF_FFFF] {
            try assertRefused(try journal { $0.setU32(size, at: self.journalMovieOffset) }, .notLensdFile)
        }
    }

    func testBadBoxSizesInsideTheJournalMoovThrow() throws {
        let trakOffset = journalMovieOffset + 8 + 108  // after the moov header and mvhd
        XCTAssertEqual(try journal { _ in }.type(at: trakOffset), "trak")
        for size: UInt32 in [0, 7, 0xFFFF_FFFF] {
            try assertRefused(try journal { $0.setU32(size, at: trakOffset) }, .malformed)
        }
    }

    func testBadFirstMoofThrowsAsNoCompleteFragment() throws {
        let journal = try journal { _ in }
        let moofOffset = journalMovieOffset + Int(journal.u32(at: journalMovieOffset))
        XCTAssertEqual(journal.type(at: moofOffset), "moof")
        for size: UInt32 in [0, 7, 0xFFFF_FFFF] {
            try assertRefused(try self.journal { $0.setU32(size, at: moofOffset) }, .noCompleteFragment)
        }
        // A 64-bit size of 2^63 and a trun claiming 2^32-1 samples.
        try assertRefused(try self.journal { data in
            data.setU32(1, at: moofOffset)
            data.setU32(0x8000_0000, at: moofOffset + 8)
        }, .noCompleteFragment)
        let trunCount = moofOffset + 8 + 16 + 8 + 16 + 20 + 12
        XCTAssertEqual(journal.type(at: trunCount - 12), "trun")
        try assertRefused(try self.journal { $0.setU32(0xFFFF_FFFF, at: trunCount) }, .noCompleteFragment)
    }

    /// A fresh 3-fragment MJPEG journal with `change` applied.
    private func journal(_ change: (inout Data) -> Void) throws -> Data {
        let directory = try TemporaryDirectory(prefix: "lensd-mp4")
        let path = directory.file("journal.mp4").path
        try MP4TestMedia.writeMJPEGJournal(at: path, perFragment: 2)
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        change(&data)
        return data
    }

    private func assertRefused(_ contents: Data, _ kind: MP4Error.Kind, line: UInt = #line) throws {
        let directory = try TemporaryDirectory(prefix: "lensd-mp4")
        let url = directory.file("hostile.mp4")
        try contents.write(to: url)
        XCTAssertThrowsError(try MP4Recovery.finalize(path: url.path), line: line) { error in
            XCTAssertEqual((error as? MP4Error)?.kind, kind, "\(error)", line: line)
        }
        XCTAssertEqual(try Data(contentsOf: url), contents, "a refused file is left as it was", line: line)
    }
}

private extension Data {
    func u32(at offset: Int) -> UInt32 {
        self[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    func type(at offset: Int) -> String {
        String(decoding: self[(offset + 4)..<(offset + 8)], as: UTF8.self)
    }

    mutating func setU32(_ value: UInt32, at offset: Int) {
        for index in 0..<4 { self[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
    }
}
