import Foundation

/// Variables lensd reads from its environment (CREDENTIALS_DIRECTORY, SOFTHSM2_CONF,
/// pkcs11-spy's), set in the test's process for one test as a unit file would set them for lensd.
final class ProcessEnvironment {
    private var saved: [String: String?] = [:]

    /// nil unsets a variable.
    func set(_ variables: [String: String?]) {
        for (name, value) in variables {
            if saved[name] == nil { saved[name] = .some(ProcessInfo.processInfo.environment[name]) }
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
    }

    func restore() {
        for (name, value) in saved {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        saved = [:]
    }

    deinit { restore() }
}
