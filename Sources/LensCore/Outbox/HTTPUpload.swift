import CCurl
import Glibc

/// One HTTP PUT of one file through libcurl: the body streamed from the file, TLS verification
/// always on (against `caFile`, or the system store), redirects never followed, http and https only.
struct HTTPUpload {
    struct Response: Equatable, Sendable {
        var status: Int
        /// Seconds from the response's Retry-After, when it had one.
        var retryAfter: Int?
    }

    /// The request never got an HTTP answer (refused, timed out, TLS refused the server, aborted).
    struct TransportFailure: Error, CustomStringConvertible, Equatable {
        var message: String
        var isTLS: Bool
        var description: String { message }
    }

    var url: String
    var headers: [String]
    var caFile: String?
    /// Set (lens_curl_raise_flag) from another thread to abort the transfer.
    var abortFlag: UnsafeMutablePointer<Int32>
    var connectTimeoutSeconds = 15
    /// A transfer that moves less than a byte a second for this long has stalled.
    var stallSeconds = 60

    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// Sends `size` bytes read from `fd` (from its current offset).
    func send(fd: Int32, size: Int) throws -> Response {
        guard Self.globalInit, let curl = curl_easy_init() else {
            throw TransportFailure(message: "libcurl could not be initialised", isTLS: false)
        }
        defer { curl_easy_cleanup(curl) }
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers { list = curl_slist_append(list, header) }
        defer { curl_slist_free_all(list) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }
        let body = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        body.initialize(to: fd)
        defer { body.deallocate() }

        let settings: [CURLcode] = [
            lens_curl_set_string(curl, CURLOPT_URL, url),
            lens_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https"),
            lens_curl_set_long(curl, CURLOPT_UPLOAD, 1),
            lens_curl_set_size(curl, CURLOPT_INFILESIZE_LARGE, Int64(size)),
            lens_curl_read_body_from(curl, body),
            lens_curl_discard_response_body(curl),
            lens_curl_set_headers(curl, list),
            lens_curl_set_error_buffer(curl, errorBuffer),
            lens_curl_abort_when_set(curl, abortFlag),
            lens_curl_set_long(curl, CURLOPT_SSL_VERIFYPEER, 1),
            lens_curl_set_long(curl, CURLOPT_SSL_VERIFYHOST, 2),
            lens_curl_set_string(curl, CURLOPT_CAINFO, caFile),
            lens_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 0),
            // Worker threads: no SIGALRM-based DNS timeouts.
            lens_curl_set_long(curl, CURLOPT_NOSIGNAL, 1),
            lens_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT, connectTimeoutSeconds),
            lens_curl_set_long(curl, CURLOPT_LOW_SPEED_LIMIT, 1),
            lens_curl_set_long(curl, CURLOPT_LOW_SPEED_TIME, stallSeconds),
            // Fewer, larger reads of the file (libcurl's default is 64 KiB).
            lens_curl_set_long(curl, CURLOPT_UPLOAD_BUFFERSIZE, 1 << 20),
        ]
        if let failed = settings.first(where: { $0 != CURLE_OK }) {
            throw TransportFailure(message: "libcurl refused a setting: \(String(cString: curl_easy_strerror(failed)))", isTLS: false)
        }
        let code = curl_easy_perform(curl)
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            throw TransportFailure(message: message, isTLS: Self.tlsCodes.contains(code))
        }
        let retryAfter = Int(lens_curl_retry_after(curl))
        return Response(status: lens_curl_response_code(curl), retryAfter: retryAfter > 0 ? retryAfter : nil)
    }

    private static let tlsCodes: Set<CURLcode> = [
        CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE,
        CURLE_SSL_CERTPROBLEM, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_INVALIDCERTSTATUS,
    ]
}
