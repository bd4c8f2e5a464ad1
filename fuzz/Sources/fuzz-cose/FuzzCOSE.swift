import C2PA
import LensCrypto

/// COSESign1(encoded:) on arbitrary bytes, then its algorithm, its x5chain certificates (parsed
/// by LensCrypto), a signature check over an empty claim and chain building, as the verifier does,
/// and the RFC 3161 token of a sigTst2 header (parse, CMS signature, imprint).
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
    opensslThreadStop()  // frees OpenSSL's per-thread error-queue buffers: see fuzz-certificate
    return 0
}

@_silgen_name("OPENSSL_thread_stop")
private func opensslThreadStop()
