import CCurl
import Glibc
import LensSystem
import Synchronization

/// Raised once, from any thread: the upload in flight stops, and so does every later one.
final class AbortSignal: Sendable {
    private let raised = Atomic(false)

    func raise() { raised.store(true, ordering: .relaxed) }

    var isRaised: Bool { raised.load(ordering: .relaxed) }
}

/// One HTTP PUT of one file through libcurl (under CurlTransfer's rules): the body streamed from the file.
struct HTTPUpload {
    struct Response: Equatable, Sendable {
        var status: Int
        /// Seconds from the response's Retry-After, when it had one.
        var retryAfter: Int?
    }

    typealias TransportFailure = CurlTransfer.TransportFailure

    var url: String
    var headers: [String]
    var caFile: String?
    /// Raised from another thread to abort the transfer.
    var abort: AbortSignal
    var connectTimeoutSeconds = 15
    /// The whole transfer, the server's answer included, ends by then (upload-timeout).
    var deadlineSeconds: Double
    /// A transfer that moves less than a byte a second for this long has stalled.
    var stallSeconds = 60

    /// Sends `size` bytes read from `file` (from its current offset); the C shim reads it.
    func send(_ file: borrowing FileDescriptor, size: Int) throws -> Response {
        let transfer = try CurlTransfer(url: url, caFile: caFile)
        let curl = transfer.curl
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers { list = lens_curl_slist_append(list, header) }
        defer { lens_curl_slist_free_all(list) }
        let body = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        body.initialize(to: file.rawValue)
        defer { body.deallocate() }

        try transfer.set([
            lens_curl_set_long(curl, CURLOPT_UPLOAD, 1),
            lens_curl_set_size(curl, CURLOPT_INFILESIZE_LARGE, Int64(size)),
            lens_curl_read_body_from(curl, body),
            lens_curl_discard_response_body(curl),
            lens_curl_set_headers(curl, list),
            lens_curl_abort_when(curl, { context, _, _, _, _ in
                Unmanaged<AbortSignal>.fromOpaque(context!).takeUnretainedValue().isRaised ? 1 : 0
            }, Unmanaged.passUnretained(abort).toOpaque()),
            lens_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT, connectTimeoutSeconds),
            lens_curl_set_long(curl, CURLOPT_TIMEOUT_MS, Int(deadlineSeconds * 1000)),
            lens_curl_set_long(curl, CURLOPT_LOW_SPEED_LIMIT, 1),
            lens_curl_set_long(curl, CURLOPT_LOW_SPEED_TIME, stallSeconds),
            // Fewer, larger reads of the file (libcurl's default is 64 KiB).
            lens_curl_set_long(curl, CURLOPT_UPLOAD_BUFFERSIZE, 1 << 20),
        ])
        let status = try withExtendedLifetime(abort) { try transfer.perform() }
        let retryAfter = Int(lens_curl_retry_after(curl))
        return Response(status: status, retryAfter: retryAfter > 0 ? retryAfter : nil)
    }
}
