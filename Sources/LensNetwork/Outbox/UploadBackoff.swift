/// Seconds to wait before the next attempt after `failures` transient failures in a row: the
/// first retry after `first` seconds, doubling each time, never more than `cap`. A server's
/// Retry-After replaces the doubling (still within the cap: a server's wish is no reason to hold
/// a result longer than the operator allows).
enum UploadBackoff {
    static func delay(afterFailures failures: Int, first: Double, cap: Double, retryAfter: Int?) -> Double {
        if let retryAfter { return min(max(Double(retryAfter), 1), cap) }
        let doublings = min(max(failures - 1, 0), 40)
        return min(first * Double(1 << doublings), cap)
    }
}
