import FoundationEssentials
import LensCrypto

/// Asks OCSP responders (RFC 6960, HTTP POST of application/ocsp-request) about the device
/// certificate, each URL in turn until one gives an answer that passes OCSPResponse's checks.
public struct OCSPClient: Sendable {
    public var urls: [String]
    /// For each responder, the whole exchange.
    public var timeout: Duration

    public init(urls: [String], timeout: Duration = .seconds(10)) {
        self.urls = urls
        self.timeout = timeout
    }

    /// Why no responder gave a usable answer: what each one did, in order.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var attempts: [(url: String, problem: String)]
        public var description: String { attempts.map { "\($0.url): \($0.problem)" }.joined(separator: "; ") }
    }

    /// Responses carry the responder's certificate, rarely more.
    static let responseLimit = 64 << 10

    /// The status of `certificate`, issued by `issuer`, as a responder chaining to `anchors` says.
    public func status(of certificate: Certificate, issuer: Certificate, anchors: [Certificate], now: Date = Date()) throws -> OCSPStatus {
        var attempts: [(url: String, problem: String)] = []
        for url in urls {
            do {
                let request = try OCSPRequest(certificate: certificate, issuer: issuer)
                let response = try CurlTransfer.post(request.der, to: url, contentType: "application/ocsp-request", caFile: nil,
                                                     timeout: timeout, limit: Self.responseLimit, server: "the OCSP responder")
                return try OCSPResponse.check(response, certificate: certificate, issuer: issuer, anchors: anchors,
                                              request: request, now: now)
            } catch {
                attempts.append((url, "\(error)"))
            }
        }
        throw Failure(attempts: attempts)
    }
}
