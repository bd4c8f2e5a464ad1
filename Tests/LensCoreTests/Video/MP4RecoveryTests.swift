import Foundation
import LensCore
import LensMedia
import LensTestSupport
import XCTest

/// A crash leaves a journal (or a half-done finalization); recovery keeps every complete fragment.
final class MP4RecoveryTests: XCTestCase {
    /// moof of a 10-sample fragment: 88 + 12 per sample; its mdat header: 8.
    private let moofSize = 88 + 12 * 10

    func testCutInTheThirdMdatKeepsTwoFragments() throws {
        try assertRecovers(cut: { ends in ends[1] + moofSize + 8 + 1000 }, frames: 20)
    }

    func testCutInTheThirdMoofKeepsTwoFragments() throws {
        try assertRecovers(cut: { ends in ends[1] + 50 }, frames: 20)
    }

    func testCutAtAFragmentBoundaryDropsNothing() throws {
        try assertRecovers(cut: { ends in ends[1] }, frames: 20)
    }

    func testUncutJournalKeepsEveryFragment() throws {
        try assertRecovers(cut: { ends in ends[2] }, frames: 30)
    }

    func testRecoveringAFinalizedFileChangesNoByte() throws {
        let directory = try TemporaryDirectory(prefix: "lensd-mp4")
        let path = directory.file("done.mp4").path
        let finished = try MP4TestMedia.writeMJPEGJournal(at: path).writer.finish()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let recovered = try MP4Recovery.finalize(path: path)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        assertSame(recovered, finished)
    }

    /// A crash after the final moov was fsynced, before the moofs were retyped.
    func testFinalizationCutShortBeforeRetypingIsCompleted() throws {
        let directory = try TemporaryDirectory(prefix: "lensd-mp4")
        let path = directory.file("half.mp4").path
        let finished = try MP4TestMedia.writeMJPEGJournal(at: path).writer.finish()
        let clean = try Data(contentsOf: URL(fileURLWithPath: path))
        try retypeJournalBoxesBack(path)
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: path)), clean)

        let recovered = try MP4Recovery.finalize(path: path)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), clean)
        assertSame(recovered, finished)
    }

    /// A crash while the final moov was being appended: it is cut off like a torn fragment and rebuilt.
    func testTornFinalMoovIsRebuilt() throws {
        let directory = try TemporaryDirectory(prefix: "lensd-mp4")
        let path = directory.file("torn-moov.mp4").path
        let (writer, ends) = try MP4TestMedia.writeMJPEGJournal(at: path)
        let finished = try writer.finish()
        let clean = try Data(contentsOf: URL(fileURLWithPath: path))
        try retypeJournalBoxesBack(path)
        XCTAssertEqual(truncate(path, off_t(ends[2] + 100)), 0)

        let recovered = try MP4Recovery.finalize(path: path)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), clean)
        XCTAssertEqual(recovered.droppedBytes, 100)
        XCTAssertEqual(recovered.bmffHash, finished.bmffHash)
    }

    private func assertRecovers(cut: ([Int]) -> Int, frames: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let directory = try TemporaryDirectory(prefix: "lensd-mp4")
        let path = directory.file("crash.mp4").path
        let ends = try MP4TestMedia.writeMJPEGJournal(at: path).ends  // the writer is gone: a crash
        let cutAt = cut(ends)
        let keptEnd = ends.last { $0 <= cutAt }!
        XCTAssertEqual(truncate(path, off_t(cutAt)), 0)
        let kept = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(keptEnd)

        let result = try MP4Recovery.finalize(path: path)
        XCTAssertEqual(result.droppedBytes, cutAt - keptEnd, file: file, line: line)
        XCTAssertEqual(result.sampleCount, frames, file: file, line: line)
        XCTAssertEqual(result.duration, Double(frames) / 30, accuracy: 1e-9, file: file, line: line)

        let info = try FFprobeReport.read(URL(fileURLWithPath: path))
        XCTAssertEqual(info.frames, frames, file: file, line: line)
        XCTAssertEqual(info.duration, Double(frames) / 30, accuracy: 0.001, file: file, line: line)
        XCTAssertEqual(info.decodeErrors, "", file: file, line: line)
        let layout = try MP4Oracles.layout(path)
        XCTAssertEqual(layout.bmffHash, result.bmffHash, file: file, line: line)
        XCTAssertEqual(layout.boxes.map { String($0.prefix(4)) },
                       ["ftyp", "free", "free"] + Array(repeating: ["free", "mdat"], count: frames / 10).flatMap { $0 } + ["moov"],
                       file: file, line: line)

        // No sample byte moved: the kept fragments are byte for byte where they were, apart from the retyped moofs.
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(result.size, after.count, file: file, line: line)
        let differing = zip(kept, after.prefix(keptEnd)).enumerated().filter { $0.element.0 != $0.element.1 }.count
        XCTAssertEqual(differing, 4 * (1 + frames / 10), "only the 4-byte types of the journal moov and each moof", file: file, line: line)
    }

    private func assertSame(_ recovered: FinalizedMP4, _ finished: FinalizedMP4, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(recovered.bmffHash, finished.bmffHash, file: file, line: line)
        XCTAssertEqual(recovered.reserve, finished.reserve, file: file, line: line)
        XCTAssertEqual(recovered.size, finished.size, file: file, line: line)
        XCTAssertEqual(recovered.sampleCount, finished.sampleCount, file: file, line: line)
        XCTAssertEqual(recovered.duration, finished.duration, file: file, line: line)
        XCTAssertEqual(recovered.droppedBytes, 0, file: file, line: line)
    }

    /// Undoes the last finalization step: the journal moov and every moof get their types back.
    private func retypeJournalBoxesBack(_ path: String) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let data = try handle.readToEnd() ?? Data()
        var offset = 0, index = 0
        while offset + 8 <= data.count {
            let size = data[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = index == 2 ? "moov" : index > 2 && data[offset + 4..<offset + 8] == Data("free".utf8) ? "moof" : nil
            if let type {
                try handle.seek(toOffset: UInt64(offset + 4))
                try handle.write(contentsOf: Data(type.utf8))
            }
            offset += size
            index += 1
        }
    }
}
