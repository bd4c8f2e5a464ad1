import CCurl
import Glibc

/// One libcurl easy transfer under the rules lensd keeps with every server: http and https only,
/// TLS verification always on (against `caFile`, or the system store), redirects never followed,
/// no signals (transfers run on worker threads). Each caller adds what its request needs.
package final class CurlTransfer {
    /// The request never got an HTTP answer (refused, timed out, TLS refused the server, aborted).
    package struct TransportFailure: Error, CustomStringConvertible, Equatable {
        package var message: String
        package var isTLS: Bool
        package var description: String { message }
    }

    let curl: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init(url: String, caFile: String?) throws {
        if let failure = lens_curl_load() {
            throw TransportFailure(message: String(cString: failure), isTLS: false)
        }
        guard let curl = lens_curl_easy_init() else {
            throw TransportFailure(message: "libcurl could not start a transfer", isTLS: false)
        }
        self.curl = curl
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try set([
            lens_curl_set_string(curl, CURLOPT_URL, url),
            lens_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https"),
            lens_curl_set_error_buffer(curl, errorBuffer),
            lens_curl_set_long(curl, CURLOPT_SSL_VERIFYPEER, 1),
            lens_curl_set_long(curl, CURLOPT_SSL_VERIFYHOST, 2),
            lens_curl_set_string(curl, CURLOPT_CAINFO, caFile),
            lens_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 0),
            lens_curl_set_long(curl, CURLOPT_NOSIGNAL, 1),
        ])
    }

    deinit {
        lens_curl_easy_cleanup(curl)
        errorBuffer.deallocate()
    }

    /// The results of `lens_curl_set_*` calls: the first refusal is thrown.
    func set(_ settings: [CURLcode]) throws {
        if let failed = settings.first(where: { $0 != CURLE_OK }) {
            throw TransportFailure(message: "libcurl refused a setting: \(String(cString: lens_curl_easy_strerror(failed)))", isTLS: false)
        }
    }

    /// Runs the transfer; returns the HTTP status.
    func perform() throws -> Int {
        let code = lens_curl_easy_perform(curl)
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            let message = detail.isEmpty ? String(cString: lens_curl_easy_strerror(code)) : detail
            throw TransportFailure(message: message, isTLS: Self.tlsCodes.contains(code))
        }
        return lens_curl_response_code(curl)
    }

    private static let tlsCodes: Set<CURLcode> = [
        CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE,
        CURLE_SSL_CERTPROBLEM, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_INVALIDCERTSTATUS,
    ]
}
