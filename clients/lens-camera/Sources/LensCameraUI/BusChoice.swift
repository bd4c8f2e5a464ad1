import LensClient

/// `--bus system|session|ADDRESS`, as lensctl reads it; system when absent.
enum BusChoice {
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ arguments: [String]) throws -> BusAddress {
        var bus: BusAddress = .system
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--bus":
                guard let value = rest.popFirst() else { throw UsageError(description: "--bus needs a value: system, session or a D-Bus address") }
                bus = switch value {
                case "system": .system
                case "session": .session
                default: .address(value)
                }
            case "-h", "--help":
                throw UsageError(description: "usage: lens-camera [--bus system|session|ADDRESS]")
            default:
                throw UsageError(description: "unknown argument \(argument)\nusage: lens-camera [--bus system|session|ADDRESS]")
            }
        }
        return bus
    }
}
