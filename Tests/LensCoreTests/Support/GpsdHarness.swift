import LensTestSupport
import Foundation
import LensCore
import Synchronization
import XCTest

/// One location scenario with real parts: an NMEA log played by the feeder into a real gpsd,
/// and a GPSDLocationProvider on a real poll loop, recording every status it publishes.
final class GpsdHarness {
    let log: GpsdNMEALog
    let feeder: GpsdNMEAFeeder
    let gpsd: GpsdProcess
    let loop: PollEventScheduler
    let provider: GPSDLocationProvider
    private let published = StatusRecorder()

    /// Starts the feeder and (unless told not to) gpsd, and creates the provider, not yet
    /// started.
    init(
        log name: String, startGpsd: Bool = true, clock: @escaping @Sendable () -> Date = Date.init
    ) throws {
        log = try GpsdNMEALog(named: name)
        feeder = try GpsdNMEAFeeder(log: log)
        do {
            let gpsd = try GpsdProcess(sourcePort: feeder.port)
            if startGpsd { try gpsd.start() }
            self.gpsd = gpsd
        } catch {
            feeder.stop()
            throw error
        }
        loop = PollEventScheduler()
        let provider = GPSDLocationProvider(
            host: "127.0.0.1", port: String(gpsd.port), scheduler: loop, clock: clock)
        let published = self.published
        loop.sync { provider.onChange = { status in published.append(status) } }
        self.provider = provider
    }

    /// Stops everything, in the order that leaves no fd or process behind.
    func tearDown() {
        loop.sync { [provider] in provider.stop() }
        loop.shutdown()
        gpsd.kill()
        feeder.stop()
    }

    func startProvider() {
        loop.sync { [provider] in provider.start() }
    }

    var status: LocationStatus { loop.sync { [provider] in provider.status } }
    var currentFix: LocationFix? { loop.sync { [provider] in provider.currentFix } }

    /// Every status passed to onChange so far, in order.
    var changes: [LocationStatus] { published.all }

    /// Polls the provider's status on its loop until `condition` holds; fails the test and
    /// returns nil after `timeout`.
    @discardableResult
    func waitForStatus(
        _ what: String, timeout: TimeInterval, file: StaticString = #filePath, line: UInt = #line,
        where condition: (LocationStatus) -> Bool
    ) -> LocationStatus? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            let now = status
            if condition(now) { return now }
            Thread.sleep(forTimeInterval: 0.02)
        } while Date() < deadline
        XCTFail("no \(what) within \(timeout) s; last status \(status)", file: file, line: line)
        return nil
    }

    /// Waits for a fresh fix of the given mode.
    func waitForFix(
        _ mode: FixMode, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line
    ) -> LocationFix? {
        let status = waitForStatus("\(mode.rawValue) fix", timeout: timeout, file: file, line: line) {
            if case .fix(let fix) = $0 { fix.mode == mode } else { false }
        }
        guard case .fix(let fix) = status else { return nil }
        return fix
    }
}

/// The statuses a provider published, appended on its loop thread, read from the test's.
private final class StatusRecorder: Sendable {
    private let statuses = Mutex<[LocationStatus]>([])
    func append(_ status: LocationStatus) { statuses.withLock { $0.append(status) } }
    var all: [LocationStatus] { statuses.withLock { $0 } }
}
