import FoundationEssentials
import Dispatch
import LensClient
import LensSystem

/// Connecting to lensd on the bus that `--bus` names, else `LENSD_BUS` (a shell of
/// `scripts/try` sets it to its private bus), else the system bus.
enum Connection {
    static let environmentVariable = "LENSD_BUS"

    static func address(_ args: Arguments, environment: [String: String] = ProcessInfo.processInfo.environment) -> BusAddress {
        switch args.last("--bus") ?? environment[environmentVariable].flatMap({ $0.isEmpty ? nil : $0 }) ?? "system" {
        case "system": .system
        case "session": .session
        case let address: .address(address)
        }
    }

    /// A camera on a private queue: lensctl reads events from `events`, not through a delegate.
    static func camera(_ args: Arguments) throws -> LensCamera {
        try client { () throws(LensClientError) in try open(args) }
    }

    /// As `camera(_:)` for a one-shot command with a deadline (capture, record, face-capture):
    /// while the user already has lensd's max-sessions-per-user, it asks again until `deadline`,
    /// as CameraWait waits for the camera, instead of failing at once.
    static func camera(_ args: Arguments, deadline: ContinuousClock.Instant, timeout: Double) throws -> LensCamera {
        var told = false
        while true {
            do {
                return try open(args)
            } catch .busy(let message) {
                guard ContinuousClock.now < deadline else {
                    throw CommandFailure(.timeout, "gave up after \(Seconds.plain(timeout)) s waiting for a session: \(message)")
                }
                if !told { Output.note("waiting for a session: \(message)") }
                told = true
                // lensd announces no session's end: ask again soon.
                Threads.sleep(seconds: min(0.2, max(0, (deadline - .now) / .seconds(1))))
            } catch {
                throw CommandFailure(error)
            }
        }
    }

    private static func open(_ args: Arguments) throws(LensClientError) -> LensCamera {
        try LensCamera(bus: address(args), delegateQueue: DispatchQueue(label: "lensctl.events"))
    }

    /// Runs `body`, turning LensClient errors into exit codes.
    static func client<T>(_ body: () throws(LensClientError) -> T) throws -> T {
        do { return try body() } catch { throw CommandFailure(error) }
    }
}
