import Foundation
@testable import LensStorage
import Synchronization
import XCTest

@testable import LensCore

/// What lets users manage their results: deletion, the listing (kept across restarts with
/// whether a video is unsigned or recovered), and evictions reported, never silent.
final class ResultStoreManagementTests: XCTestCase {
    private var scratch: URL!
    private var resultsDirectory: URL { scratch.appendingPathComponent("state/results") }

    override func setUpWithError() throws {
        scratch = try StorageTestSupport.makeScratchDirectory("results-management")
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: scratch)
    }

    private func makeStore(maxCount: Int = 100) throws -> ResultStore {
        try ResultStore(directory: resultsDirectory, maxCountPerUID: maxCount, maxBytesPerUID: 1 << 30, minimumFreeBytes: 0)
    }

    private func photo(_ store: ResultStore, uid: UInt32 = 1000) throws -> StoredResult {
        try store.store(parts: [[0xFF, 0xD8, 0xFF, 0xD9]], name: UUID().uuidString.lowercased(), uid: uid, mime: "image/jpeg",
                        fileExtension: "jpg")
    }

    /// A finished recording journaled where lensd's recorder leaves it, then published.
    private func video(_ store: ResultStore, signed: Bool, recovered: Bool) throws -> StoredResult {
        let name = UUID().uuidString.lowercased()
        try Data(repeating: 7, count: 64).write(to: URL(fileURLWithPath: try store.recordingPath(name: name, uid: 1000)))
        return try store.publishRecording(name: name, uid: 1000, signed: signed, recovered: recovered)
    }

    func testDeleteRemovesOnlyTheOwnersResult() throws {
        let store = try makeStore()
        let mine = try photo(store)
        XCTAssertThrowsError(try store.delete(name: mine.name, uid: 1001)) { XCTAssertEqual(($0 as? StorageError)?.kind, .notFound) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: mine.path))
        try store.delete(name: mine.name, uid: 1000)
        XCTAssertFalse(FileManager.default.fileExists(atPath: mine.path))
        XCTAssertEqual(store.results(uid: 1000), [])
        XCTAssertThrowsError(try store.delete(name: mine.name, uid: 1000)) { XCTAssertEqual(($0 as? StorageError)?.kind, .notFound) }
        XCTAssertThrowsError(try store.delete(name: "../1001", uid: 1000)) { XCTAssertEqual(($0 as? StorageError)?.kind, .invalidArgument) }
    }

    func testTheListingKeepsUnsignedAndRecoveredAcrossARestart() throws {
        let store = try makeStore()
        let plain = try photo(store)
        let unsigned = try video(store, signed: false, recovered: false)
        let recovered = try video(store, signed: true, recovered: true)
        let listed = store.results(uid: 1000)
        XCTAssertEqual(listed.map(\.name), [recovered.name, unsigned.name, plain.name])
        XCTAssertEqual(listed.map(\.signed), [true, false, true])
        XCTAssertEqual(listed.map(\.recovered), [true, false, false])
        XCTAssertNil(listed[0].sha256, "listing never hashes a video")
        XCTAssertLessThan(abs(listed[2].created.timeIntervalSinceNow), 60)

        let reopened = try makeStore().results(uid: 1000)
        XCTAssertEqual(Set(reopened.map { "\($0.name) \($0.signed) \($0.recovered)" }),
                       Set(listed.map { "\($0.name) \($0.signed) \($0.recovered)" }))
        // The notes are not results themselves, and go with their result.
        XCTAssertEqual(reopened.count, 3)
        try store.delete(name: unsigned.name, uid: 1000)
        let left = try FileManager.default.contentsOfDirectory(atPath: resultsDirectory.appendingPathComponent("1000").path)
        XCTAssertEqual(Set(left), ["\(plain.name).jpg", "\(recovered.name).mp4", ".note-\(recovered.name)"])
    }

    func testEvictionsAreReportedWithTheCap() throws {
        let store = try makeStore(maxCount: 2)
        let reported = Mutex<[(String, String)]>([])
        store.onEviction { evicted, reason in reported.withLock { $0.append((evicted.name, reason)) } }
        let first = try photo(store)
        _ = try photo(store)
        XCTAssertTrue(reported.withLock { $0.isEmpty })
        _ = try photo(store)
        let evicted = reported.withLock { $0 }
        XCTAssertEqual(evicted.map(\.0), [first.name])
        XCTAssertEqual(evicted.map(\.1), ["over max-results-per-user (2 results)"])
        XCTAssertEqual(store.limits.count, 2)
    }
}
