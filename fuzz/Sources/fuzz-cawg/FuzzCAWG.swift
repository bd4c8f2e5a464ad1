import C2PA
import Foundation

/// A CAWG identity assertion's CBOR, checked as the verifier checks one (CAWGIdentity.validate):
/// the assertion and its signer payload, then by signature type the X.509 COSE signature, or the
/// identity claims aggregation path — COSE_Sign1, its headers, the W3C credential (JSON), the
/// issuer's DID (did:jwk decoded, its JWK read, Ed25519 verified), the credential's time-stamp,
/// its validity dates and c2paAsset. Seeds: fuzz/make-seeds.sh (rewrite_manifest.py --cawg-ica).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let reference = HashedURI(url: "self#jumbf=c2pa.assertions/c2pa.hash.data", hash: [UInt8](repeating: 0, count: 32))
    _ = CAWGIdentity.validate(assertion: bytes, claimReferences: [reference], now: Date(timeIntervalSince1970: 1_800_000_000))
    opensslThreadStop()  // frees OpenSSL's per-thread error-queue buffers: see fuzz-certificate
    return 0
}

@_silgen_name("OPENSSL_thread_stop")
private func opensslThreadStop()
