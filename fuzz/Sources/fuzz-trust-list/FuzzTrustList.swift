import C2PA
import Foundation

/// A trust list file as lensctl reads one (TrustList(contents:): ETSI TS 119 602 LoTE JSON or a
/// PEM bundle; every entity, service, certificate and status), each service's status asked at
/// three times, and the same bytes as c2pa-rs trust settings (TrustSettings: JSON, or the TOML
/// subset lensd reads). Seeds: fuzz/make-trust-list-seeds.py.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let list = try? TrustList(contents: bytes, source: "fuzz") {
        _ = (list.name, list.isStale(at: Date()))
        for service in list.entities.flatMap(\.services) {
            for moment in [Date.distantPast, Date(timeIntervalSince1970: 1_800_000_000), Date.distantFuture] {
                _ = service.status(at: moment).map { ($0.name, $0.isTrusted) }
            }
            _ = service.certificates.map(\.subject.oneLine)
        }
    }
    if let settings = try? TrustSettings(contents: bytes, source: "fuzz") {
        _ = (settings.anchors.count, settings.allowedCertificates.count, settings.extendedKeyUsages.count)
    }
    opensslThreadStop()  // frees OpenSSL's per-thread error-queue buffers: see fuzz-certificate
    return 0
}

@_silgen_name("OPENSSL_thread_stop")
private func opensslThreadStop()
