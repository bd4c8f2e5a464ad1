import CCurl
import Glibc
import LensCrypto

extension CurlTransfer {
    /// POSTs `body` as `contentType` within `timeout` and returns the answer, which must be
    /// HTTP 200 and at most `limit` bytes; `server` names who answered in errors ("the TSA").
    static func post(_ body: [UInt8], to url: String, contentType: String, caFile: String?, timeout: Duration,
                     limit: Int, server: String) throws -> [UInt8] {
        let answer = try exchange(url, body: body, contentType: contentType, caFile: caFile, timeout: timeout, limit: limit)
        guard answer.status == 200 else { throw CryptoError(operation: "POST to \(url)", reason: "\(server) answered HTTP \(answer.status)") }
        guard !answer.body.isEmpty else { throw CryptoError(operation: "POST to \(url)", reason: "\(server) answered nothing") }
        return answer.body
    }
}
