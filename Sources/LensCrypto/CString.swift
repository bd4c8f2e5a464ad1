extension String {
    /// Decodes a C buffer up to its first NUL, as OpenSSL's fill-a-buffer APIs leave it.
    init(nulTerminated buffer: [CChar]) {
        let end = buffer.firstIndex(of: 0) ?? buffer.endIndex
        self = String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
