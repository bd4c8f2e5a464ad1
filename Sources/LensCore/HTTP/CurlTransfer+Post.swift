import CCurl
import Glibc
import LensCrypto

extension CurlTransfer {
    /// POSTs `body` as `contentType` within `timeout` and returns the answer, which must be
    /// HTTP 200 and at most `limit` bytes; `server` names who answered in errors ("the TSA").
    static func post(_ body: [UInt8], to url: String, contentType: String, caFile: String?, timeout: Duration,
                     limit: Int, server: String) throws -> [UInt8] {
        let transfer = try CurlTransfer(url: url, caFile: caFile)
        let curl = transfer.curl
        var headers: UnsafeMutablePointer<curl_slist>?
        headers = lens_curl_slist_append(headers, "Content-Type: \(contentType)")
        defer { lens_curl_slist_free_all(headers) }
        var response = lens_curl_buffer(data: nil, length: 0, limit: limit)
        defer { free(response.data) }
        let milliseconds = max(1, Int(timeout / .milliseconds(1)))
        let status = try withUnsafeMutablePointer(to: &response) { buffer in
            try transfer.set([
                lens_curl_post_body(curl, body, Int64(body.count)),
                lens_curl_set_headers(curl, headers),
                lens_curl_collect_response(curl, buffer),
                lens_curl_set_long(curl, CURLOPT_TIMEOUT_MS, milliseconds),
            ])
            return try transfer.perform()
        }
        guard status == 200 else { throw CryptoError(operation: "POST to \(url)", reason: "\(server) answered HTTP \(status)") }
        guard let data = response.data else { throw CryptoError(operation: "POST to \(url)", reason: "\(server) answered nothing") }
        return Array(UnsafeBufferPointer(start: data, count: response.length))
    }
}
