import CCurl
import FoundationEssentials
import LensCrypto

/// Asks RFC 3161 TSAs for a time-stamp over some bytes: an HTTP POST of a TimeStampReq
/// (application/timestamp-query) to each URL in turn until one answers with a token that passes
/// TimeStampReply's checks.
public struct TSAClient: Sendable {
    public var urls: [String]
    /// The roots a TSA's certificate must chain to (`tsa-trust-anchor`).
    public var anchors: [Certificate]
    /// For each TSA, the whole exchange (connect, send, answer).
    public var timeout: Duration
    /// A CA file for https TSAs (nil: the system store).
    public var caFile: String?

    /// Why no TSA gave a usable token: what each one did, in the order they were tried.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var attempts: [(url: String, problem: String)]
        public var description: String {
            attempts.map { "\($0.url): \($0.problem)" }.joined(separator: "; ")
        }
    }

    public init(urls: [String], anchors: [Certificate], timeout: Duration = .seconds(5), caFile: String? = nil) {
        self.urls = urls
        self.anchors = anchors
        self.timeout = timeout
        self.caFile = caFile
    }

    /// A checked token whose imprint is the SHA-256 of `data`, with genTime in `signerValidity`.
    public func timeStamp(_ data: [UInt8], signerValidity: ClosedRange<Date>) throws -> TimeStampToken {
        let request = try TimeStampRequest(over: data)
        var attempts: [(url: String, problem: String)] = []
        for url in urls {
            do {
                let response = try post(request.der, to: url)
                return try TimeStampReply.token(from: response, answering: request, anchors: anchors, signerValidity: signerValidity)
            } catch {
                attempts.append((url, "\(error)"))
            }
        }
        throw Failure(attempts: attempts)
    }

    /// The largest answer read: real tokens carry a few certificates, well under this.
    static let responseLimit = 256 << 10

    private func post(_ body: [UInt8], to url: String) throws -> [UInt8] {
        try CurlTransfer.post(body, to: url, contentType: "application/timestamp-query", caFile: caFile, timeout: timeout,
                              limit: Self.responseLimit, server: "the TSA")
    }
}
