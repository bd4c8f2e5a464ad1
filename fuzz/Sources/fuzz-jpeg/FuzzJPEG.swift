import C2PA
import Foundation

/// The whole verification path on an arbitrary file: JPEG header → APP11 → manifest store →
/// claim → COSE signature → certificates → hashed URIs → data hash.
private let verifier = Verifier(now: Date(timeIntervalSince1970: 1_800_000_000))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let report = try? verifier.verify(jpeg: bytes) {
        _ = (report.state, report.statuses.count)
    }
    opensslThreadStop()  // frees OpenSSL's per-thread error-queue buffers: see fuzz-certificate
    return 0
}

@_silgen_name("OPENSSL_thread_stop")
private func opensslThreadStop()
