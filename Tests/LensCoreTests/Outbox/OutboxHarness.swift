import Foundation
@testable import LensCore
@testable import LensNetwork
@testable import LensStorage
import LensTestSupport
import XCTest

/// An outbox on a scratch state directory, with result files made up by the test, and every
/// event it reports kept for the test to wait on.
final class OutboxHarness {
    let directory: TemporaryDirectory
    let events = EventLog()
    private(set) var outbox: Outbox!

    init() throws {
        directory = try TemporaryDirectory(prefix: "lensd-outbox")
        try FileManager.default.createDirectory(at: directory.file("results"), withIntermediateDirectories: true)
    }

    func open(_ settings: OutboxSettings) throws {
        let events = events
        outbox = try Outbox(settings: settings, directory: directory.file("outbox").path, onEvent: { events.append($0) })
    }

    func close() {
        outbox?.stop()
        outbox = nil
    }

    /// A result file of `size` random bytes (or `bytes`), as ResultStore would have stored it.
    func result(size: Int = 4096, bytes: [UInt8]? = nil, fileExtension: String = "jpg") throws -> StoredResult {
        let content = try bytes ?? Array(try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/urandom")).read(upToCount: size) ?? Data())
        let name = UUID().uuidString.lowercased()
        let path = directory.file("results/\(name).\(fileExtension)").path
        try Data(content).write(to: URL(fileURLWithPath: path))
        return StoredResult(name: name, uid: 1000, size: content.count, sha256: SHA256Hex.digest([content]),
                            mime: fileExtension == "mp4" ? "video/mp4" : "image/jpeg", path: path)
    }

    func recordFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.file("outbox").path)) ?? []).sorted()
    }

    static func sha256(_ url: URL) throws -> String { SHA256Hex.digest([Array(try Data(contentsOf: url))]) }

    deinit { close() }
}

/// Events as they arrive from the upload thread; tests wait for one with a liveness deadline.
final class EventLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [Outbox.Event] = []

    func append(_ event: Outbox.Event) {
        condition.lock()
        events.append(event)
        condition.broadcast()
        condition.unlock()
    }

    var all: [Outbox.Event] {
        condition.lock()
        defer { condition.unlock() }
        return events
    }

    var deliveries: [(record: OutboxRecord, url: String, status: Int)] {
        all.compactMap { if case .delivered(let r, let u, let s) = $0 { (r, u, s) } else { nil } }
    }

    var failures: [(record: OutboxRecord, error: String, message: String)] {
        all.compactMap { if case .failed(let r, let e, let m) = $0 { (r, e, m) } else { nil } }
    }

    /// Waits until `predicate` holds for the events so far (re-checked at each event, and at
    /// least every 0.2 s).
    func wait(timeout: TimeInterval = 60, _ what: String, until predicate: (EventLog) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !predicate(self) {
            guard Date() < deadline else { throw TestToolError("\(what): not within \(timeout) s; events: \(all)") }
            condition.lock()
            _ = condition.wait(until: min(deadline, Date().addingTimeInterval(0.2)))
            condition.unlock()
        }
    }
}
