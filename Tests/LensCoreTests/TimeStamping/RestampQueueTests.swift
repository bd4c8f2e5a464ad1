import C2PA
import Foundation
import LensCore
import LensCrypto
import LensTestSupport
import XCTest

/// The re-stamp queue on its own: records on disk until their result is stamped, a TSA that is
/// down makes captures skip it until it answers, and a result that cannot be stamped (deleted
/// meanwhile) is dropped without holding up the others or leaving captures waiting.
final class RestampQueueTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var pki: TestPKI!
    private var tsa: LocalTSA!
    private var store: ResultStore!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "lensd-restamp-queue")
        pki = try TestPKI.make(in: directory.file("pki"))
        tsa = try LocalTSA(directory: directory.file("tsa"))
        store = try ResultStore(directory: directory.file("results"))
    }

    func testQueuedResultsAreStampedInOrderOnceATSAAnswersAndADeletedOneIsDropped() throws {
        let port = tsa.port
        tsa.stop()
        let names = try (1...3).map { try storedOfflinePhoto(number: $0) }
        let events = EventLog()
        let done = expectation(description: "three events")
        done.expectedFulfillmentCount = 3
        let queue = try RestampQueue(directory: directory.file("restamp").path, restamping: { [current = try restamping] in current },
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
            let queue = try RestampQueue(directory: directory.file("restamp").path, restamping: { [current = try restamping] in current },
                                         store: store, onEvent: { XCTFail("no TSA answers yet: \($0)") }, onDamagedRecord: { _, _ in })
            try queue.enqueue(name: name, uid: 1000)
            queue.stop()
        }
        tsa = try LocalTSA(directory: directory.file("tsa"), port: port)
        let updated = expectation(description: "updated")
        let queue = try RestampQueue(directory: directory.file("restamp").path, restamping: { [current = try restamping] in current },
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

    private var restamping: Restamping {
        get throws {
            let root = { (url: URL) in try Certificate.parsePEM(try String(contentsOf: url, encoding: .utf8))[0] }
            return Restamping(client: TSAClient(urls: [tsa.url], anchors: [try root(tsa.root)]), signer: try signer(),
                              generator: ClaimGeneratorInfo(name: "lensd-tests", version: "0"), trustAnchors: [try root(pki.root)])
        }
    }

    private func signer() throws -> KeySigner {
        try KeySigner(keyPEM: try String(contentsOf: pki.key, encoding: .utf8), chainPEM: try String(contentsOf: pki.chain, encoding: .utf8))
    }

    private func storedOfflinePhoto(number: Int) throws -> String {
        let jpeg = Array(try Data(contentsOf: try TestJPEG.make(at: directory.file("frame\(number).jpg"), seed: number)))
        let photo = CapturedPhoto(jpeg: jpeg, thumbnail: [], width: 640, height: 480, captureTime: Date(), make: "lensd",
                                  model: "test camera", isSynthetic: true, digitalZoomRatio: nil, frameNumber: UInt64(number))
        let signed = try PhotoSigning(signer: try signer(), generator: ClaimGeneratorInfo(name: "lensd-tests", version: "0"))
            .sign(photo, location: nil).jpeg
        let name = "\(number)1111111-2222-4333-8444-555555555555"
        _ = try store.store(parts: [signed], name: name, uid: 1000, mime: "image/jpeg", fileExtension: "jpg")
        return name
    }
}
