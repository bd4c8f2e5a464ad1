import COpenSSL

/// Adapters for OpenSSL's `i2d_*` / `d2i_*` calling convention.
enum DER {
    /// Runs an `i2d_*` function twice: once to learn the length, once to fill the buffer.
    static func encode(
        _ operation: String,
        _ i2d: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    ) throws -> [UInt8] {
        let length = i2d(nil)
        guard length > 0 else { throw CryptoError.openSSL(operation) }
        var output = [UInt8](repeating: 0, count: Int(length))
        let written = output.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d(&cursor)
        }
        guard written == length else { throw CryptoError.openSSL(operation) }
        return output
    }

    /// Runs a `d2i_*` function and insists it consumed every byte: OpenSSL happily
    /// ignores trailing data, which would let two different inputs parse as one object.
    static func decode(
        _ der: [UInt8],
        _ operation: String,
        _ d2i: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> OpaquePointer?,
        free: (OpaquePointer) -> Void
    ) throws -> OpaquePointer {
        guard !der.isEmpty else { throw CryptoError(operation: operation, reason: "empty input") }
        return try der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let object = d2i(&cursor, buffer.count) else { throw CryptoError.openSSL(operation) }
            guard cursor == buffer.baseAddress! + buffer.count else {
                free(object)
                throw CryptoError(operation: operation, reason: "trailing bytes after DER object")
            }
            return object
        }
    }

    /// As `decode`, for PKCS7, which Swift imports as a struct pointer: all bytes, nothing trailing.
    static func decodePKCS7(_ der: [UInt8]) -> UnsafeMutablePointer<PKCS7>? {
        der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard buffer.count > 0, let message = d2i_PKCS7(nil, &cursor, buffer.count) else { return nil }
            guard cursor == buffer.baseAddress! + buffer.count else {
                PKCS7_free(message)
                return nil
            }
            return message
        }
    }
}
