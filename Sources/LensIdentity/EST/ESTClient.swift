import FoundationEssentials
import LensCrypto
import LensNetwork

/// The client side of EST (RFC 7030) over libcurl: TLS verified against `est-ca` (or the system
/// store), redirects never followed. Blocking: run it on a worker thread. /csrattrs is not asked:
/// lensd cannot honour arbitrary attributes, and the CA decides what it issues anyway.
public struct ESTClient: Sendable {
    /// `https://HOST[:PORT]/.well-known/est`, optionally followed by `/LABEL`.
    public var baseURL: String
    public var caFile: String?
    public var timeout: Duration

    /// The largest answer read; certs-only chains are a few kilobytes.
    private static let answerLimit = CertsOnlyMessage.sizeLimit

    public init(baseURL: String, caFile: String?, timeout: Duration = .seconds(30)) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.caFile = caFile
        self.timeout = timeout
    }

    /// GET /cacerts (§4.1): the CA certificates the server names.
    public func caCertificates() throws(ESTFailure) -> [Certificate] {
        try certificates(of: try exchange("cacerts"), what: "/cacerts")
    }

    /// POST /simpleenroll (§4.2.1) with HTTP Basic `user:password`.
    public func enroll(_ requestDER: [UInt8], credential: String) throws(ESTFailure) -> [Certificate] {
        let authorization = "Authorization: Basic " + Data(credential.utf8).base64EncodedString()
        return try issued(try exchange("simpleenroll", request: requestDER, headers: [authorization]), what: "the credential")
    }

    /// POST /simplereenroll (§4.2.2), lensd authenticated by its current certificate and key in TLS (§3.3.2).
    public func reenroll(_ requestDER: [UInt8], certificatePEM: String, keyPEM: String) throws(ESTFailure) -> [Certificate] {
        let client = CurlTransfer.ClientIdentity(certificatePEM: certificatePEM, keyPEM: keyPEM)
        return try issued(try exchange("simplereenroll", request: requestDER, client: client), what: "the current certificate")
    }

    private func issued(_ answer: CurlTransfer.Answer, what credential: String) throws(ESTFailure) -> [Certificate] {
        switch answer.status {
        case 202: throw .pending
        case 401: throw .credentialRefused(credential)
        default: return try certificates(of: answer, what: "the issued certificate")
        }
    }

    private func certificates(of answer: CurlTransfer.Answer, what: String) throws(ESTFailure) -> [Certificate] {
        guard answer.status == 200 else { throw Self.refusal(answer, what: what) }
        do {
            return try CertsOnlyMessage.certificates(base64: answer.body)
        } catch {
            throw .refusedAnswer("\(what): \(error)")
        }
    }

    private static func refusal(_ answer: CurlTransfer.Answer, what: String) -> ESTFailure {
        if answer.status == 401 { return .credentialRefused(what) }
        let text = String(decoding: answer.body.prefix(512), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).first.map { String($0.prefix(200)) } ?? ""
        return .caRefused(status: answer.status, firstLine: line.filter { $0.asciiValue.map { $0 >= 0x20 && $0 != 0x7f } ?? true })
    }

    private func exchange(_ operation: String, request: [UInt8]? = nil, headers: [String] = [],
                          client: CurlTransfer.ClientIdentity? = nil) throws(ESTFailure) -> CurlTransfer.Answer {
        let body = request.map { Array(Data($0).base64EncodedString(options: .lineLength76Characters).utf8) }
        let encoding = request == nil ? [] : ["Content-Transfer-Encoding: base64"]
        do {
            return try CurlTransfer.exchange("\(baseURL)/\(operation)", body: body, contentType: request == nil ? nil : "application/pkcs10",
                                             headers: headers + encoding, client: client, caFile: caFile, timeout: timeout,
                                             limit: Self.answerLimit)
        } catch let failure as CurlTransfer.TransportFailure {
            throw failure.isTLS ? .tlsRefused(failure.message) : .unreachable(failure.message)
        } catch {
            throw .unreachable("\(error)")
        }
    }
}
