import FoundationEssentials
import LensCore
import LensCrypto
import LensNetwork

/// Whether lensd asks its CA's OCSP responder about its own certificate (`ocsp`).
enum RevocationPolicy: String {
    /// Capture is disabled until a responder says the certificate is good, and whenever none
    /// has said so within the last interval.
    case required
    /// Asked at start and every interval; a revoked certificate stops capture, an unreachable
    /// responder only gets logged.
    case whenOnline = "when-online"
    case never
}

/// The revocation keys: `ocsp`, `ocsp-url`, `ocsp-interval`.
extension Configuration {
    static let revocationKeys = ["ocsp", "ocsp-url", "ocsp-interval"]

    mutating func applyRevocation(key: String, value: String) throws {
        switch key {
        case "ocsp":
            guard let policy = RevocationPolicy(rawValue: value) else {
                throw ConfigurationError("ocsp must be required, when-online or never, not \(value)")
            }
            ocspPolicy = policy
        case "ocsp-url":
            guard value.lowercased().hasPrefix("http://") || value.lowercased().hasPrefix("https://") else {
                throw ConfigurationError("ocsp-url takes an http(s) URL, not \(value)")
            }
            ocspURL = value
        case "ocsp-interval": ocspInterval = .seconds(try Self.seconds(key, value, 1...7 * 86_400))
        default: preconditionFailure("not a revocation key: \(key)")
        }
    }

    /// The responders to ask about `certificate`: `ocsp-url`, else those its authorityInfoAccess
    /// names; nil when revocation is not checked (`ocsp = never`, or by default with none named).
    func revocationCheck(for certificate: Certificate?) -> (client: OCSPClient, policy: RevocationPolicy)? {
        let urls = ocspURL.map { [$0] } ?? certificate?.ocspURLs ?? []
        let policy = ocspPolicy ?? (urls.isEmpty ? .never : .whenOnline)
        guard policy != .never else { return nil }
        return (OCSPClient(urls: urls), policy)
    }
}
