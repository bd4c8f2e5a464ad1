import CCurl
import Glibc

extension CurlTransfer {
    /// An HTTP answer: its status and body (at most the caller's limit).
    package struct Answer {
        package var status: Int
        package var body: [UInt8]
    }

    /// Who the client is in TLS (RFC 7030 §3.3.2): a certificate and its software key, both PEM,
    /// handed to libcurl in memory so that the key never lands in a file.
    package struct ClientIdentity {
        var certificatePEM: String
        var keyPEM: String

        package init(certificatePEM: String, keyPEM: String) {
            self.certificatePEM = certificatePEM
            self.keyPEM = keyPEM
        }
    }

    /// GET `url`, or POST `body` as `contentType` when a body is given, within `timeout`: the
    /// answer whatever its status. `headers` are added as given ("Name: value").
    package static func exchange(_ url: String, body: [UInt8]? = nil, contentType: String? = nil, headers: [String] = [],
                         client: ClientIdentity? = nil, caFile: String?, timeout: Duration, limit: Int) throws -> Answer {
        let transfer = try CurlTransfer(url: url, caFile: caFile)
        let curl = transfer.curl
        var list: UnsafeMutablePointer<curl_slist>?
        for header in (contentType.map { ["Content-Type: \($0)"] } ?? []) + headers {
            list = lens_curl_slist_append(list, header)
        }
        defer { lens_curl_slist_free_all(list) }
        var response = lens_curl_buffer(data: nil, length: 0, limit: limit)
        defer { free(response.data) }
        let milliseconds = max(1, Int(timeout / .milliseconds(1)))
        let status = try withUnsafeMutablePointer(to: &response) { buffer in
            try transfer.set([
                lens_curl_set_headers(curl, list),
                lens_curl_collect_response(curl, buffer),
                lens_curl_set_long(curl, CURLOPT_TIMEOUT_MS, milliseconds),
            ])
            if let body { try transfer.set([lens_curl_post_body(curl, body, Int64(body.count))]) }
            if let client { try transfer.present(client) }
            return try transfer.perform()
        }
        let bytes = response.data.map { Array(UnsafeBufferPointer(start: $0, count: response.length)) } ?? []
        return Answer(status: status, body: bytes)
    }

    private func present(_ client: ClientIdentity) throws {
        let certificate = Array(client.certificatePEM.utf8)
        var key = Array(client.keyPEM.utf8)
        // libcurl copies the key; this copy is wiped before it is freed.
        defer { key.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        try set([
            lens_curl_set_blob(curl, CURLOPT_SSLCERT_BLOB, certificate, certificate.count),
            lens_curl_set_string(curl, CURLOPT_SSLCERTTYPE, "PEM"),
            lens_curl_set_blob(curl, CURLOPT_SSLKEY_BLOB, key, key.count),
            lens_curl_set_string(curl, CURLOPT_SSLKEYTYPE, "PEM"),
        ])
    }
}
