import LensBus
import LensContract
import LensCore

/// OpenSession's options.
struct SessionOptions {
    var accuracy = LocationAccuracy.defaultThreshold
    var persistent = false
    var audio = true

    init(_ options: [String: BusValue]) throws {
        for (key, value) in options {
            guard let option = Lens1.SessionOption(rawValue: key) else {
                throw LensError.invalidArgument("unknown session option \(key); known: \(Lens1.SessionOption.known)")
            }
            switch option {
            case .persistent:
                guard let flag = value.boolValue else { throw LensError.invalidArgument("persistent must be a boolean") }
                persistent = flag
            case .maximumLocationAccuracy:
                guard let meters = value.doubleValue, LocationAccuracy.isValidThreshold(meters) else {
                    throw LensError.invalidArgument("maximumLocationAccuracy must be a double in 3...1500 metres")
                }
                accuracy = meters
            case .audio:
                guard let flag = value.boolValue else { throw LensError.invalidArgument("audio must be a boolean") }
                audio = flag
            }
        }
    }
}
