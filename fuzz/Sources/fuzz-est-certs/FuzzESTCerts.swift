import Foundation
import LensCrypto

/// What an EST server answers to /cacerts and /simpleenroll, as lensd's EST client reads it:
/// `CertsOnlyMessage.certificates(base64:)` (the body as sent) and `certificates(der:)` (the same
/// bytes as DER), every certificate's accessors, and the chain check /cacerts goes through
/// (each certificate against the last one as anchor).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for certificates in [try? CertsOnlyMessage.certificates(base64: bytes), try? CertsOnlyMessage.certificates(der: bytes)] {
        guard let certificates, let anchor = certificates.last else { continue }
        for certificate in certificates {
            _ = (certificate.subject.oneLine, certificate.issuer.oneLine, certificate.isCA, certificate.isSelfIssued)
            _ = (certificate.publicKey, certificate.notAfter, certificate.extendedKeyUsage, certificate.pem)
            _ = ChainVerifier.verify(leaf: certificate, intermediates: certificates, anchors: [anchor], at: nil)
        }
    }
    opensslThreadStop()  // frees OpenSSL's per-thread error-queue buffers: see fuzz-certificate
    return 0
}

@_silgen_name("OPENSSL_thread_stop")
private func opensslThreadStop()
