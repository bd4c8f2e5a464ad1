import COpenSSL

extension CryptoError {
    /// Drains the calling thread's OpenSSL error queue into the reason, so a stale
    /// entry can never be blamed on a later, unrelated failure.
    static func openSSL(_ operation: String) -> CryptoError {
        var messages: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(nulTerminated: buffer))
        }
        let reason = messages.isEmpty ? "unknown OpenSSL error" : messages.joined(separator: "; ")
        return CryptoError(operation: operation, reason: reason)
    }
}
