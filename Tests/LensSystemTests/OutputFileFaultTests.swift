import Foundation
import LensClient
import LensSystem
import XCTest

/// LensClient's OutputFile (what lensctl writes fetched results with) under a full disk or a
/// failing device: the error is reported with its errno and nothing half-written is published.
final class OutputFileFaultTests: FaultInjectionTestCase {
    private let photo = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })

    private func write(_ name: String, overwrite: Bool = false) throws -> String {
        try OutputFile.write(photo, to: .file(tmp.file(name).path), name: "ignored", fileExtension: "jpg", overwrite: overwrite)
    }

    private func assertFails(with expected: Errno, _ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard let failure = error as? OutputFile.Failure else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(failure.errno, expected, failure.message, file: file, line: line)
            XCTAssertTrue(failure.message.hasSuffix(expected.description), failure.message, file: file, line: line)
        }
        XCTAssertEqual(SystemCalls.FaultInjection.pending, 0, "the fault was met", file: file, line: line)
    }

    func testWritesTheWholeFile() throws {
        XCTAssertEqual(try write("photo.jpg"), tmp.file("photo.jpg").path)
        XCTAssertEqual(try leftovers(), ["photo.jpg"])
        XCTAssertEqual(try Data(contentsOf: tmp.file("photo.jpg")), photo)
    }

    func testNoSpaceAtWriteLeavesNothing() throws {
        inject(.noSpace, into: .write)
        assertFails(with: .noSpace) { _ = try write("photo.jpg") }
        XCTAssertEqual(try leftovers(), [])
    }

    func testNoSpaceAtFsyncLeavesNothing() throws {
        inject(.noSpace, into: .sync)
        assertFails(with: .noSpace) { _ = try write("photo.jpg") }
        XCTAssertEqual(try leftovers(), [])
    }

    func testIOErrorAtFsyncLeavesThePreviousFile() throws {
        let previous = Data("the previous photo".utf8)
        try previous.write(to: tmp.file("photo.jpg"))
        inject(.io, into: .sync)
        assertFails(with: .io) { _ = try write("photo.jpg", overwrite: true) }
        XCTAssertEqual(try leftovers(), ["photo.jpg"])
        XCTAssertEqual(try Data(contentsOf: tmp.file("photo.jpg")), previous)
    }

    /// A caller's `fill` (lensctl's fetch copies the result in) meets the full disk: its error
    /// comes through as it threw it, and the temporary file goes.
    func testNoSpaceInFillLeavesNothing() throws {
        inject(.noSpace, into: .write, skipping: 1)
        XCTAssertThrowsError(try OutputFile.write(to: .directory(tmp.url.path), name: "video", fileExtension: "mp4",
                                                  overwrite: false) { file in
            try file.writeAll(Array(photo))
            try file.writeAll(Array(photo))
        }) { error in
            XCTAssertEqual((error as? SystemError)?.errno, .noSpace, "\(error)")
        }
        XCTAssertEqual(try leftovers(), [])
    }

    func testInterruptedWritesAndSyncStillPublish() throws {
        inject(.interrupted, into: .write, times: 4)
        inject(.interrupted, into: .sync, times: 2)
        _ = try write("photo.jpg")
        XCTAssertEqual(SystemCalls.FaultInjection.delivered, 6)
        XCTAssertEqual(try Data(contentsOf: tmp.file("photo.jpg")), photo)
    }
}
