import FoundationEssentials
import LensCore
import LensIdentity

/// The EST keys (`enrollment = est`): `est-url`, `est-ca`, `est-credential-file`.
extension Configuration {
    static let estKeys = ["est-url", "est-ca", "est-credential-file"]

    mutating func applyEST(key: String, value: String) throws {
        switch key {
        case "est-url":
            // RFC 7030 §3.2.2: the operations live under /.well-known/est, optionally below a CA label.
            guard value.lowercased().hasPrefix("https://"), let path = URLComponents(string: value)?.path,
                  path == "/.well-known/est" || path.hasPrefix("/.well-known/est/") else {
                throw ConfigurationError("est-url takes https://HOST[:PORT]/.well-known/est[/LABEL], not \(value)")
            }
            estURL = value
        case "est-ca": estCA = try Self.absolutePath(key, value)
        case "est-credential-file": estCredentialFile = try Self.absolutePath(key, value)
        default: preconditionFailure("not an EST key: \(key)")
        }
    }

    /// `enrollment = est` needs its server; the EST keys mean nothing without it.
    func validateEST() throws {
        if enrollment == .est {
            guard estURL != nil else { throw ConfigurationError("enrollment = est needs est-url, the EST server (https://HOST/.well-known/est)") }
        } else if estURL != nil || estCA != nil || estCredentialFile != nil {
            throw ConfigurationError("est-url, est-ca and est-credential-file are read only with enrollment = est")
        }
    }

    /// What the daemon enrolls with, when `enrollment = est`.
    var estEnrollment: ESTEnrollment? {
        guard enrollment == .est, let estURL else { return nil }
        return ESTEnrollment(identity: identityConfiguration, client: ESTClient(baseURL: estURL, caFile: estCA),
                             credentialFile: estCredentialFile)
    }
}
