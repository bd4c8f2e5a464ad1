import Foundation
import Glibc
import LensCrypto
@testable import LensStorage
import XCTest

@testable import LensCore

final class ResultStoreTests: XCTestCase {
    private var scratch: URL!
    private var resultsDirectory: URL { scratch.appendingPathComponent("state/results") }

    override func setUpWithError() throws {
        scratch = try StorageTestSupport.makeScratchDirectory("results")
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: scratch)
    }

    private func makeStore(maxCount: Int = 100, maxBytes: Int64 = 1 << 30) throws -> ResultStore {
        try ResultStore(directory: resultsDirectory, maxCountPerUID: maxCount, maxBytesPerUID: maxBytes, minimumFreeBytes: 0)
    }

    private func name() -> String {
        UUID().uuidString.lowercased()
    }

    @discardableResult
    private func store(_ store: ResultStore, _ bytes: [UInt8], uid: UInt32 = 1000, name: String? = nil) throws -> StoredResult {
        try store.store(parts: [bytes], name: name ?? self.name(), uid: uid, mime: "image/jpeg", fileExtension: "jpg")
    }

    private func assertKind(_ kind: StorageError.Kind, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual((error as? StorageError)?.kind, kind, "\(error)", file: file, line: line)
        }
    }

    func testStoredPartsReadBackWithTheirDigest() throws {
        let resultStore = try makeStore()
        let parts: [[UInt8]] = [[0xFF, 0xD8], [], Array(0..<200).map { UInt8($0) }, [0xFF, 0xD9]]
        let bytes = parts.flatMap { $0 }
        let name = name()

        let stored = try resultStore.store(parts: parts, name: name, uid: 1000, mime: "image/jpeg", fileExtension: "jpg")

        XCTAssertEqual(stored.name, name)
        XCTAssertEqual(stored.uid, 1000)
        XCTAssertEqual(stored.size, bytes.count)
        XCTAssertEqual(stored.mime, "image/jpeg")
        XCTAssertEqual(stored.sha256, SHA256Hex.encode(Digest.hash(bytes)))
        XCTAssertEqual(stored.path, resultsDirectory.appendingPathComponent("1000/\(name).jpg").path)
        XCTAssertEqual(try resultStore.read(name: name, uid: 1000), bytes)
        XCTAssertEqual(try resultStore.result(name: name, uid: 1000), stored)
        XCTAssertEqual(try Array(Data(contentsOf: URL(fileURLWithPath: stored.path))), bytes)
    }

    func testFilesAndDirectoriesArePrivate() throws {
        try FileManager.default.createDirectory(at: resultsDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let stored = try store(try makeStore(), [1, 2, 3])

        XCTAssertEqual(try StorageTestSupport.mode(resultsDirectory.path), 0o700, "tightened even when it existed")
        XCTAssertEqual(try StorageTestSupport.mode(resultsDirectory.appendingPathComponent("1000").path), 0o700)
        XCTAssertEqual(try StorageTestSupport.mode(stored.path), 0o600)
        XCTAssertEqual(try StorageTestSupport.status(stored.path).st_uid, getuid())
    }

    func testRestartServesEarlierResults() throws {
        let first = try makeStore()
        let older = try store(first, [1, 2, 3])
        let newer = try first.store(parts: [[4, 5]], name: name(), uid: 1000, mime: "video/mp4", fileExtension: "mp4")

        let second = try makeStore()

        XCTAssertEqual(try second.result(name: older.name, uid: 1000), older)
        XCTAssertEqual(try second.result(name: newer.name, uid: 1000), newer, "digest recomputed, MIME type from the extension")
        XCTAssertEqual(Set(second.results(uid: 1000).map(\.name)), [older.name, newer.name])
    }

    func testLeftoverTemporaryFilesAreRemovedAtAnyDepth() throws {
        let kept = try store(try makeStore(), [9, 9, 9])
        let leftovers = [".tmp-1", "1000/.tmp-2", "1000/deeper/.tmp-3", "77/.tmp-4"].map { resultsDirectory.appendingPathComponent($0) }
        for leftover in leftovers {
            try FileManager.default.createDirectory(at: leftover.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([1, 2]).write(to: leftover)
        }
        let unrelated = resultsDirectory.appendingPathComponent("1000/notes.txt")
        try Data("keep".utf8).write(to: unrelated)

        let reopened = try makeStore()

        for leftover in leftovers {
            XCTAssertFalse(StorageTestSupport.exists(leftover.path), leftover.path)
        }
        XCTAssertTrue(StorageTestSupport.exists(unrelated.path), "only leftovers of lensd's own writes are removed")
        XCTAssertEqual(try reopened.read(name: kept.name, uid: 1000), [9, 9, 9])
        XCTAssertEqual(reopened.results(uid: 1000).map(\.name), [kept.name])
    }

    /// Crash safety, by construction rather than by crashing: a result is written to a ".tmp-*"
    /// file in its uid's directory and fsynced, then renamed to its final name (atomic within one
    /// directory), and the directory is fsynced. So the final name never shows partial bytes, and
    /// an interrupted store leaves only a ".tmp-*" file, which init removes (test above). What a
    /// test can see: after any store, successful or not, only final names remain.
    func testStoresLeaveOnlyFinalNames() throws {
        let resultStore = try makeStore()
        let stored = try store(resultStore, [1])
        assertKind(.invalidArgument) { try self.store(resultStore, [2], name: stored.name) }

        let small = try ResultStore(directory: resultsDirectory, maxBytesPerUID: 10, minimumFreeBytes: 0)
        assertKind(.full) { _ = try small.store(parts: [[UInt8](repeating: 0, count: 11)], name: self.name(), uid: 1000, mime: "x", fileExtension: "bin") }

        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: resultsDirectory.appendingPathComponent("1000").path), ["\(stored.name).jpg"])
        XCTAssertEqual(try resultStore.read(name: stored.name, uid: 1000), [1], "a refused duplicate does not replace the original")
    }

    func testRetentionByCountDeletesTheOldest() throws {
        let resultStore = try makeStore(maxCount: 3)
        let stored = try (0..<5).map { try store(resultStore, [UInt8($0)]) }

        XCTAssertEqual(resultStore.results(uid: 1000).map(\.name), stored[2...].reversed().map(\.name))
        for old in stored[..<2] {
            XCTAssertFalse(StorageTestSupport.exists(old.path))
            assertKind(.notFound) { _ = try resultStore.read(name: old.name, uid: 1000) }
        }
    }

    func testRetentionByBytesDeletesTheOldest() throws {
        let resultStore = try makeStore(maxBytes: 250)
        let stored = try (0..<3).map { _ in try store(resultStore, [UInt8](repeating: 7, count: 100)) }

        XCTAssertEqual(resultStore.results(uid: 1000).map(\.name), [stored[2].name, stored[1].name])
        XCTAssertFalse(StorageTestSupport.exists(stored[0].path))
        let big = try store(resultStore, [UInt8](repeating: 8, count: 250))
        XCTAssertEqual(resultStore.results(uid: 1000).map(\.name), [big.name], "the new result is kept, everything older goes")
    }

    func testRetentionIsPerUID() throws {
        let resultStore = try makeStore(maxCount: 1)
        let mine = try store(resultStore, [1], uid: 1000)
        _ = try store(resultStore, [2], uid: 1001)
        XCTAssertEqual(resultStore.results(uid: 1000).map(\.name), [mine.name])
    }

    func testAnotherUIDCannotSeeAResult() throws {
        let resultStore = try makeStore()
        let stored = try store(resultStore, [1, 2, 3], uid: 1000)
        let absent = name()

        for (name, uid) in [(stored.name, UInt32(1001)), (absent, 1000)] {
            assertKind(.notFound) { _ = try resultStore.result(name: name, uid: uid) }
            assertKind(.notFound) { _ = try resultStore.read(name: name, uid: uid) }
            assertKind(.notFound) { _ = try resultStore.sealedMemfd(name: name, uid: uid) }
        }
        XCTAssertEqual(resultStore.results(uid: 1001), [])
        // The same answer whether the name exists for someone else or not at all.
        XCTAssertEqual(message { _ = try resultStore.read(name: stored.name, uid: 1001) }.replacingOccurrences(of: stored.name, with: "N"),
                       message { _ = try resultStore.read(name: absent, uid: 1001) }.replacingOccurrences(of: absent, with: "N"))
    }

    private func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    func testInvalidNamesAndExtensionsAreRefused() throws {
        let resultStore = try makeStore()
        let valid = name()
        let names = ["../x", "", valid.uppercased(), valid + "a", String(valid.dropLast()), "../" + String(valid.dropFirst(3)),
                     valid.replacingOccurrences(of: "-", with: "/"), "00000000-0000-0000-0000-00000000000g"]
        for bad in names {
            assertKind(.invalidArgument) { try self.store(resultStore, [1], name: bad) }
            assertKind(.invalidArgument) { _ = try resultStore.read(name: bad, uid: 1000) }
        }
        for bad in ["", "JPG", "../jpg", "j/g", "jpg.x", "toolongext"] {
            assertKind(.invalidArgument) { _ = try resultStore.store(parts: [[1]], name: valid, uid: 1000, mime: "x", fileExtension: bad) }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: resultsDirectory.path), [])
    }

    func testFileDeletedBehindTheStoresBackIsNotFound() throws {
        let resultStore = try makeStore()
        let stored = try store(resultStore, [1])
        try FileManager.default.removeItem(atPath: stored.path)
        assertKind(.notFound) { _ = try resultStore.read(name: stored.name, uid: 1000) }
        XCTAssertEqual(resultStore.results(uid: 1000), [])
    }

    func testLowOnSpaceFollowsTheThreshold() throws {
        XCTAssertFalse(try ResultStore(directory: resultsDirectory, minimumFreeBytes: 0).isLowOnSpace)
        XCTAssertTrue(try ResultStore(directory: resultsDirectory, minimumFreeBytes: .max).isLowOnSpace)
    }

    func testConcurrentStoresAndReads() throws {
        let resultStore = try makeStore(maxCount: 20)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<25 {
                let bytes = [UInt8(worker), UInt8(round)]
                let uid = UInt32(2000 + worker % 2)
                let name = UUID().uuidString.lowercased()
                guard let stored = try? resultStore.store(parts: [bytes], name: name, uid: uid, mime: "image/jpeg", fileExtension: "jpg") else {
                    return XCTFail("store")
                }
                // Retention by the other worker of this uid may already have deleted it.
                if let read = try? resultStore.read(name: stored.name, uid: uid) {
                    XCTAssertEqual(read, bytes)
                }
                _ = resultStore.results(uid: uid)
            }
        }
        XCTAssertEqual(resultStore.results(uid: 2000).count, 20)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: resultsDirectory.appendingPathComponent("2000").path).count, 20)
    }
}
