import C2PA
import Foundation
import LensCore
import LensCrypto
import LensNetwork
import LensTestSupport
import XCTest

/// The re-stamp queue on its own: records on disk until their result is stamped, a TSA that is
/// down makes captures skip it until it answers, and a result that cannot be stamped (deleted
/// meanwhile) is dropped without holding up the others or leaving captures waiting.
final class RestampQueueTests: RestampTestCase {

    func testQueuedResultsAreStampedInOrderOnceATSAAnswersAndADeletedOneIsDropped() throws {
        let port = tsa.port
        tsa.stop()
        let names = try (1...3).map { try storedOfflinePhoto(number: $0) }
        let events = EventLog()
        let done = expectation(description: "three events")
        done.expectedFulfillmentCount = 3
        let queue = try RestampQueue(directory: directory.file("restamp").path, restamping: { [current = try restamping()] in current },
                                     store: store, onEvent: { events.append($0); done.fulfill() },
                                     onDamagedRecord: { file, error in XCTFail("\(file): \(error)") })
        for name in names { try queue.enqueue(name: name, uid: 1000) }
        XCTAssertTrue(queue.isWaitingForTSA)
        XCTAssertEqual(records(), names.map { "\($0).json" }.sorted())
        try store.delete(name: names[1], uid: 1000)

        tsa = try LocalTSA(directory: directory.file("tsa"), port: port)
        // The queue backs off to 8 s at most: well within the bound.
        wait(for: [done], timeout: 60)
        queue.stop()
        XCTAssertEqual(events.descriptions, ["updated \(names[0])", "dropped \(names[1])", "updated \(names[2])"])
        XCTAssertEqual(records(), [])
        XCTAssertFalse(queue.isWaitingForTSA)
    }

    /// Records survive a restart: a new queue on the same directory takes them up.
    func testAQueueStartedOnOldRecordsWorksThemOff() throws {
        let name = try storedOfflinePhoto(number: 1)
        let port = tsa.port
        tsa.stop()
        do {
            let queue = try RestampQueue(directory: directory.file("restamp").path, restamping: { [current = try restamping()] in current },
                                         store: store, onEvent: { XCTFail("no TSA answers yet: \($0)") }, onDamagedRecord: { _, _ in })
            try queue.enqueue(name: name, uid: 1000)
            queue.stop()
        }
        tsa = try LocalTSA(directory: directory.file("tsa"), port: port)
        let updated = expectation(description: "updated")
        let queue = try RestampQueue(directory: directory.file("restamp").path, restamping: { [current = try restamping()] in current },
                                     store: store, onEvent: { if case .updated = $0 { updated.fulfill() } }, onDamagedRecord: { _, _ in })
        wait(for: [updated], timeout: 60)
        queue.stop()
        XCTAssertEqual(records(), [])
    }

    // MARK: Helpers

    private final class EventLog: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func append(_ event: RestampQueue.Event) {
            let text = switch event {
            case .updated(let result, _): "updated \(result.name)"
            case .dropped(let name, _, _): "dropped \(name)"
            }
            lock.withLock { list.append(text) }
        }
        var descriptions: [String] { lock.withLock { list } }
    }

    private func records() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.file("restamp").path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    private func storedOfflinePhoto(number: Int) throws -> String {
        let name = "\(number)1111111-2222-4333-8444-555555555555"
        _ = try store.store(parts: [try offlinePhoto(number: number)], name: name, uid: 1000, mime: "image/jpeg", fileExtension: "jpg")
        return name
    }
}
