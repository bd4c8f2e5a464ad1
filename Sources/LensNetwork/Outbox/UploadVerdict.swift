/// What an attempt's outcome means for the result: delivered, retried later, or given up on.
enum UploadVerdict: Equatable {
    case delivered(status: Int)
    /// Retried with backoff; `retryAfter` is the server's own Retry-After (429, 503), if it gave one.
    case transient(String, retryAfter: Int?)
    /// Not retried until someone asks (`lensctl outbox retry`). `error` is the UploadFailed wire value.
    case permanent(error: String, message: String)

    /// 2xx delivered; 408, 429 and 5xx transient; every other status (4xx, and 3xx: redirects are
    /// not followed) permanent.
    static func of(_ response: HTTPUpload.Response) -> UploadVerdict {
        switch response.status {
        case 200..<300:
            return .delivered(status: response.status)
        case 408, 429, 500..<600:
            let retryAfter = [429, 503].contains(response.status) ? response.retryAfter : nil
            return .transient("the server answered HTTP \(response.status)", retryAfter: retryAfter)
        case 413:
            return .permanent(error: UploadError.tooLarge, message: "the server refused the file as too large (HTTP 413)")
        case 300..<400:
            return .permanent(error: UploadError.rejected,
                              message: "the server redirected (HTTP \(response.status)); set upload-url to the final URL")
        default:
            return .permanent(error: UploadError.rejected, message: "the server refused the file (HTTP \(response.status))")
        }
    }
}

/// The `error` argument of UploadFailed.
public enum UploadError {
    /// The server answered a permanent 4xx.
    public static let rejected = "rejected"
    /// Larger than upload-max-bytes, or the server's 413.
    public static let tooLarge = "too_large"
    /// The result's file is gone (deleted by retention before it could be sent).
    public static let missing = "missing"
}
