import LensCrypto

/// Certificate(der:) on arbitrary bytes and every accessor the verifier reads; the same bytes
/// as text go through Certificate.parsePEM.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let certificate = try? Certificate(der: bytes) { inspect(certificate) }
    if let certificates = try? Certificate.parsePEM(String(decoding: bytes, as: UTF8.self)) {
        certificates.forEach(inspect)
    }
    // OpenSSL keeps a buffer per error-queue slot until the thread stops. Without this, libFuzzer
    // sees more mallocs than frees after most inputs and runs LeakSanitizer after each (25x slower).
    opensslThreadStop()
    return 0
}

@_silgen_name("OPENSSL_thread_stop")
private func opensslThreadStop()

private func inspect(_ c: Certificate) {
    _ = (c.version, c.subject.oneLine, c.issuer.oneLine, c.serialNumberHex, c.isCA, c.keyUsage)
    _ = (c.extendedKeyUsage, c.hasAuthorityKeyIdentifier, c.hasSubjectKeyIdentifier)
    _ = (c.authorityKeyIdentifier, c.subjectKeyIdentifier, c.hasUnknownCriticalExtension)
    _ = (c.signatureAlgorithm, c.isSelfIssued, c.notBefore, c.notAfter, c.pem)
    _ = (c.publicKey.curve, c.publicKey.typeName, c.publicKey.bits)
    _ = c.publicKey.verifyECDSA(rawSignature: [UInt8](repeating: 1, count: 64), message: c.der, digest: .sha256)
    _ = ChainVerifier.verify(leaf: c, intermediates: [], anchors: [c], at: nil)
}
