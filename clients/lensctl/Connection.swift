import FoundationEssentials
import Dispatch
import LensClient

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
        try client { () throws(LensClientError) in try LensCamera(bus: address(args), delegateQueue: DispatchQueue(label: "lensctl.events")) }
    }

    /// Runs `body`, turning LensClient errors into exit codes.
    static func client<T>(_ body: () throws(LensClientError) -> T) throws -> T {
        do { return try body() } catch { throw CommandFailure(error) }
    }
}
