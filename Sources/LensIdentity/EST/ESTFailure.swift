/// Why an EST exchange did not give lensd a certificate: what `lensctl enroll status` names.
public enum ESTFailure: Error, Equatable, CustomStringConvertible, Sendable {
    /// No HTTP answer: refused, timed out, name not found.
    case unreachable(String)
    /// TLS failed: the server's certificate does not chain to est-ca, or it refused lensd's.
    case tlsRefused(String)
    /// HTTP 401: the CA does not accept the credential (or, renewing, the certificate).
    case credentialRefused(String)
    /// Another 4xx/5xx, with the first line of the body the CA sent.
    case caRefused(status: Int, firstLine: String)
    /// HTTP 202: the request waits for a CA operator (RFC 7030 §4.2.3); asked again after the backoff.
    case pending
    /// An answer lensd does not accept: not certs-only, /cacerts not leading to org-trust-anchor,
    /// an issued chain that does not fit the device key or the anchor.
    case refusedAnswer(String)
    /// The configuration or the device key stops the attempt before the network.
    case local(String)

    public var description: String {
        switch self {
        case .unreachable(let why): "the EST server is unreachable: \(why)"
        case .tlsRefused(let why): "TLS with the EST server failed (est-ca): \(why)"
        case .credentialRefused(let what): "the EST server refused \(what) (HTTP 401)"
        case .caRefused(let status, let line): "the EST server refused the request (HTTP \(status))\(line.isEmpty ? "" : ": \(line)")"
        case .pending: "the EST server holds the request for approval (HTTP 202)"
        case .refusedAnswer(let why): "the EST answer was refused: \(why)"
        case .local(let why): why
        }
    }
}
