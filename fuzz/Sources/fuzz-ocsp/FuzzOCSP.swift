import Foundation
import LensCrypto

/// An OCSP response about a certificate, as lensd's verifier reads one stapled to a signature
/// (`StapledOCSPResponse`: status, certificates, signature, CertID matching, every answer) and as
/// its OCSP client checks a fetched one (`OCSPResponse.check`, the issuer as anchor).
/// Input: u16 BE length + certificate DER, u16 BE length + issuer DER, then the response DER
/// (fuzz/make-ocsp-seeds.sh writes seeds in that layout).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var rest = ArraySlice(UnsafeBufferPointer(start: data, count: size))
    func field() -> [UInt8]? {
        guard rest.count >= 2 else { return nil }
        let length = Int(rest[rest.startIndex]) << 8 | Int(rest[rest.startIndex + 1])
        rest = rest.dropFirst(2)
        guard rest.count >= length else { return nil }
        defer { rest = rest.dropFirst(length) }
        return Array(rest.prefix(length))
    }
    guard let certificateDER = field(), let issuerDER = field(),
          let certificate = try? Certificate(der: certificateDER), let issuer = try? Certificate(der: issuerDER) else {
        opensslThreadStop()
        return 0
    }
    let response = Array(rest)
    if let stapled = try? StapledOCSPResponse(der: response, certificate: certificate, issuer: issuer) {
        _ = (stapled.producedAt, stapled.answers, stapled.certificates.map(\.subject))
        if let responder = stapled.certificates.first {
            _ = ChainVerifier.verify(leaf: responder, intermediates: Array(stapled.certificates.dropFirst()), anchors: [issuer], at: nil)
        }
    }
    _ = try? OCSPResponse.check(response, certificate: certificate, issuer: issuer, anchors: [issuer], request: nil, now: Date())
    opensslThreadStop()  // frees OpenSSL's per-thread error-queue buffers: see fuzz-certificate
    return 0
}

@_silgen_name("OPENSSL_thread_stop")
private func opensslThreadStop()
