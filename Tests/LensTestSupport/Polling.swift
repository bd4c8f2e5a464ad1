import Foundation

/// Polls `condition` every 50 ms until it holds: a wait for an event no signal announces, with a
/// liveness deadline, not a sleep. Throws "no WHAT within N s" after `timeout`, or at once when
/// `process`, which should make it hold, has exited.
public func waitUntil(_ what: String, timeout: TimeInterval = 60, while process: Process? = nil,
                      _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while try !condition() {
        if let process, !process.isRunning { throw TestToolError("no \(what): \(process.executableURL?.lastPathComponent ?? "the process") exited") }
        guard Date() < deadline else { throw TestToolError("no \(what) within \(timeout) s") }
        usleep(50_000)
    }
}
