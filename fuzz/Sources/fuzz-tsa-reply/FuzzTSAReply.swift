import Foundation
import LensCrypto

/// What a TSA answers, as lensd's time-stamp client reads it: `TimeStampToken(response:)` (the
/// TimeStampResp, its status and token), every field the reply check reads (imprint, nonce,
/// genTime, certificates), the CMS signature, the TSA chain, the token's own DER, and the whole
/// `TimeStampReply.token` check against a request and the token's last certificate as anchor.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let token = try? TimeStampToken(response: bytes) {
        _ = (token.imprint, token.imprintAlgorithm, token.nonce, token.genTime)
        _ = token.signatureProblem()
        _ = token.trustProblem(anchors: Array(token.certificates.suffix(1)))
        _ = try? token.der
        if let request = try? TimeStampRequest(over: token.imprint) {
            _ = try? TimeStampReply.token(from: bytes, answering: request, anchors: Array(token.certificates.suffix(1)),
                                          signerValidity: Date.distantPast...Date.distantFuture)
        }
    }
    opensslThreadStop()  // frees OpenSSL's per-thread error-queue buffers: see fuzz-certificate
    return 0
}

@_silgen_name("OPENSSL_thread_stop")
private func opensslThreadStop()
