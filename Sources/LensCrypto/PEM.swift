import COpenSSL
import FoundationEssentials

/// PEM armour: reading goes through OpenSSL's parser, writing is plain base64.
enum PEM {
    struct Block {
        let label: String
        let der: [UInt8]
    }

    /// Runs `body` with a read-only memory BIO over `text`.
    static func withBIO<Result>(
        reading text: String,
        _ operation: String,
        _ body: (OpaquePointer) throws -> Result
    ) throws -> Result {
        // utf8CString is never empty, so the BIO always gets a non-null buffer; the
        // explicit length keeps an embedded NUL from silently truncating the input.
        try text.utf8CString.withUnsafeBufferPointer { buffer in
            guard let length = Int32(exactly: buffer.count - 1) else {
                throw CryptoError(operation: operation, reason: "input too large")
            }
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, length) else {
                throw CryptoError.openSSL(operation)
            }
            defer { BIO_free(bio) }
            return try body(bio)
        }
    }

    /// Every PEM block in `text`, in order.
    static func blocks(in text: String, _ operation: String) throws -> [Block] {
        try withBIO(reading: text, operation) { bio in
            var blocks: [Block] = []
            while true {
                var name: UnsafeMutablePointer<CChar>?
                var header: UnsafeMutablePointer<CChar>?
                var data: UnsafeMutablePointer<UInt8>?
                var length = 0
                guard PEM_read_bio(bio, &name, &header, &data, &length) == 1 else { break }
                defer {
                    lens_OPENSSL_free(name)
                    lens_OPENSSL_free(header)
                    lens_OPENSSL_free(data)
                }
                guard let name else { throw CryptoError.openSSL(operation) }
                blocks.append(Block(label: String(cString: name), der: Array(UnsafeBufferPointer(start: data, count: length))))
            }
            // Running out of BEGIN lines is how PEM_read_bio reports a clean end of input.
            let last = ERR_peek_last_error()
            guard ERR_GET_LIB(last) == ERR_LIB_PEM, ERR_GET_REASON(last) == PEM_R_NO_START_LINE else {
                throw CryptoError.openSSL(operation)
            }
            ERR_clear_error()
            return blocks
        }
    }

    static func encode(label: String, der: [UInt8]) -> String {
        let base64 = Data(der).base64EncodedString()
        var lines = ["-----BEGIN \(label)-----"]
        var start = base64.startIndex
        while start < base64.endIndex {
            let end = base64.index(start, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(String(base64[start..<end]))
            start = end
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n") + "\n"
    }
}
