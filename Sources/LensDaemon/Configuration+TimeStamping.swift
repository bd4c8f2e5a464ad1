import FoundationEssentials
import LensCore
import LensCrypto
import LensNetwork

/// The time-stamping keys: `tsa-url`, `tsa-trust-anchor`, `tsa-timeout`, `timestamp`.
extension Configuration {
    static let timeStampingKeys = ["tsa-url", "tsa-trust-anchor", "tsa-timeout", "timestamp"]

    mutating func applyTimeStamping(key: String, value: String) throws {
        switch key {
        case "tsa-url":
            let urls = value.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
            for url in urls where !(url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://")) {
                throw ConfigurationError("tsa-url takes http(s) URLs, tried in order and separated by commas, not \(url)")
            }
            tsaURLs = urls
        case "tsa-trust-anchor":
            let text = try ConfigurationFile.read(value)
            do { tsaTrustAnchors = try Certificate.parsePEM(text) } catch {
                throw ConfigurationError("tsa-trust-anchor \(value): \(error)")
            }
            guard !tsaTrustAnchors.isEmpty else { throw ConfigurationError("tsa-trust-anchor \(value) holds no PEM certificate") }
        case "tsa-timeout": tsaTimeout = .seconds(try Self.seconds(key, value, 1...300))
        case "timestamp":
            guard let policy = TimeStampPolicy(rawValue: value) else {
                throw ConfigurationError("timestamp must be required, when-online or never, not \(value)")
            }
            timestampPolicy = policy
        default: preconditionFailure("not a time-stamping key: \(key)")
        }
    }

    /// `timestamp` defaults to when-online once a TSA is named, else never.
    var effectiveTimestampPolicy: TimeStampPolicy {
        timestampPolicy ?? (tsaURLs.isEmpty ? .never : .whenOnline)
    }

    /// A policy that asks a TSA needs one to ask and roots to check its answer against.
    func validateTimeStamping() throws {
        guard effectiveTimestampPolicy != .never else { return }
        guard !tsaURLs.isEmpty else {
            throw ConfigurationError("timestamp = \(effectiveTimestampPolicy.rawValue) needs tsa-url, the RFC 3161 time-stamp authorities to ask")
        }
        guard !tsaTrustAnchors.isEmpty else {
            throw ConfigurationError("tsa-url needs tsa-trust-anchor, the PEM roots a TSA's certificate must chain to")
        }
    }

    /// nil under `timestamp = never`.
    var timeStamping: TimeStamping? {
        guard effectiveTimestampPolicy != .never else { return nil }
        return TimeStamping(client: TSAClient(urls: tsaURLs, anchors: tsaTrustAnchors, timeout: tsaTimeout),
                            policy: effectiveTimestampPolicy)
    }
}
