/// A failed cryptographic operation.
public struct CryptoError: Error, CustomStringConvertible, Sendable {
    /// What was being attempted, e.g. "parse certificate".
    public let operation: String
    /// Why it failed: OpenSSL's error queue text, or our own words.
    public let reason: String

    public init(operation: String, reason: String) {
        self.operation = operation
        self.reason = reason
    }

    public var description: String {
        "\(operation): \(reason)"
    }
}
