import C2PA
import LensCrypto

/// COSESign1(encoded:) on arbitrary bytes, then its algorithm, its x5chain certificates (parsed
/// by LensCrypto), a signature check over an empty claim and chain building, as the verifier does,
/// the RFC 3161 token of a sigTst2 header (parse, CMS signature, imprint), and a stapled OCSP
/// response (rVals.ocspVals) read against the x5chain's first two certificates.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let cose = try? COSESign1(encoded: bytes) else { return 0 }
    let algorithm = cose.algorithm
    let chain = cose.certificateChainDER.compactMap { try? Certificate(der: $0) }
    if let leaf = chain.first, let algorithm {
        let message = COSESign1.toBeSigned(protectedBytes: cose.protectedBytes, payload: [])
        _ = leaf.publicKey.verify(signature: cose.signature, message: message, scheme: algorithm.scheme)
        _ = ChainVerifier.verify(leaf: leaf, intermediates: Array(chain.dropFirst()), anchors: Array(chain.suffix(1)), at: nil)
    }
    if let der = cose.unprotectedHeader["sigTst2"]?["tstTokens"]?.arrayValue?.first?["val"]?.bytesValue,
       let token = try? TimeStampToken(der: der) {
        _ = token.signatureProblem()
        _ = token.imprintMatches(cose.signature)
    }
    if chain.count >= 2, let der = cose.unprotectedHeader["rVals"]?["ocspVals"]?.arrayValue?.first?.bytesValue,
       let stapled = try? StapledOCSPResponse(der: der, certificate: chain[0], issuer: chain[1]) {
        _ = (stapled.answers, stapled.producedAt, stapled.certificates.first?.extendedKeyUsage)
    }
    opensslThreadStop()  // frees OpenSSL's per-thread error-queue buffers: see fuzz-certificate
    return 0
}

@_silgen_name("OPENSSL_thread_stop")
private func opensslThreadStop()
