import LensCrypto

/// The TPM-wrapped device key lensd keeps (`<state>/enrollment/device.tpm2`, a "TSS2 PRIVATE
/// KEY"), as TPMAttestation reads it before handing its areas to the TPM: `TPMKeyBlob(der:)`,
/// `TPMKeyBlob(pem:)` on the same bytes as text, and the public area's size check.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for blob in [try? TPMKeyBlob(der: bytes), try? TPMKeyBlob(pem: String(decoding: bytes, as: UTF8.self))] {
        guard let blob else { continue }
        _ = (blob.parent, blob.privateArea.count, blob.publicContents?.count)
    }
    opensslThreadStop()  // frees OpenSSL's per-thread error-queue buffers: see fuzz-certificate
    return 0
}

@_silgen_name("OPENSSL_thread_stop")
private func opensslThreadStop()
