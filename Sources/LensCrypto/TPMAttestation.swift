import CTSS2
import Glibc

/// Evidence that a `key = tpm2:` device key was made inside the TPM and cannot leave it: a
/// TPM2_Certify of the key by the TPM's attestation key, which the TPM signs only for objects it
/// holds, naming the key's public area (its attributes fixedTPM, fixedParent,
/// sensitiveDataOrigin included). The attestation key is the TPM's endorsement key when that can
/// sign (swtpm_setup --allow-signing makes one): its certificate, from the TPM's NV, chains to the
/// TPM maker's CA. A TPM whose EK only decrypts (the standard) gives no evidence here: that needs
/// an AK certified through credential activation, which lensd does not do yet.
///
/// Talks to the TPM through tpm2-tss (CTSS2) on its own connection, beside OpenSSL's tpm2
/// provider: the same TCTI (TPM2OPENSSL_TCTI, else tpm2-tss's default, the kernel's resource
/// manager), which must let two clients share the TPM (/dev/tpmrm0 or tpm2-abrmd).
public enum TPMAttestation {
    /// The TCG EK Credential Profile's ECC NIST P-384 EK: persistent handle and certificate NV index.
    static let endorsementKeyHandle: UInt32 = 0x8101_0016
    static let endorsementCertificateIndex: UInt32 = 0x01C0_0016
    static let sha384: UInt16 = 0x000C

    /// The owner hierarchy's primary as tpm2-openssl 1.1 makes it for `parent = TPM2_RH_OWNER`
    /// (a marshaled TPM2B_PUBLIC): ECC P-256, SHA-256 names, AES-128-CFB, restricted decrypt,
    /// fixedTPM, fixedParent, sensitiveDataOrigin, userWithAuth, noDA. The same template gives
    /// the same key, so the blob loads under it.
    static let ownerPrimaryTemplate: [UInt8] = [
        0x00, 0x1A, 0x00, 0x23, 0x00, 0x0B, 0x00, 0x03, 0x04, 0x72, 0x00, 0x00, 0x00, 0x06, 0x00, 0x80,
        0x00, 0x43, 0x00, 0x10, 0x00, 0x03, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00,
    ]

    /// TPM2_Certify of the key `blob` (TPMKey's) names, by the EK, with the EK's certificate.
    public static func certify(blob: String) throws -> TPMKeyEvidence {
        let key = try TPMKeyBlob(pem: blob)
        guard let keyPublicArea = key.publicContents else {
            throw CryptoError(operation: "read the TPM key blob", reason: "its public area's size does not match")
        }
        let tpm = try Connection()
        defer { tpm.close() }
        let object = try tpm.load(key)
        defer { tpm.flush(object) }
        let signer = try tpm.call("open the endorsement key 0x\(hex(endorsementKeyHandle))") {
            lens_tss2_persistent(tpm.handle, endorsementKeyHandle, $0)
        }
        defer { lens_tss2_forget(tpm.handle, signer) }
        var attest = [UInt8](repeating: 0, count: 2048), signature = [UInt8](repeating: 0, count: 1024)
        var attestLength = 0, signatureLength = 0
        try tpm.check("TPM2_Certify of the device key by the endorsement key (it must be able to sign)",
                      lens_tss2_certify_ecdsa(tpm.handle, object, signer, sha384, nil, 0, &attest, attest.count, &attestLength,
                                              &signature, signature.count, &signatureLength))
        var certificate = [UInt8](repeating: 0, count: 4096), certificateLength = 0
        try tpm.check("read the EK certificate (NV 0x\(hex(endorsementCertificateIndex)))",
                      lens_tss2_nv_read(tpm.handle, endorsementCertificateIndex, &certificate, certificate.count, &certificateLength))
        let endorsementCertificate = try Certificate(der: Array(certificate.prefix(certificateLength)))
        return TPMKeyEvidence(attest: Array(attest.prefix(attestLength)), signature: Array(signature.prefix(signatureLength)),
                              keyPublicArea: keyPublicArea, endorsementCertificate: endorsementCertificate)
    }

    private static func hex(_ value: UInt32) -> String { String(value, radix: 16, uppercase: true) }

    /// One ESYS connection to the TPM, closed by `close`.
    private struct Connection {
        let handle: OpaquePointer

        init() throws {
            if let failure = lens_tss2_load() { throw CryptoError(operation: "open the TPM", reason: String(cString: failure)) }
            var opened: OpaquePointer?
            let tcti = getenv("TPM2OPENSSL_TCTI").map { String(cString: $0) }
            let rc = lens_tss2_open(tcti, &opened)
            guard rc == 0, let opened else {
                throw CryptoError(operation: "open the TPM (\(tcti ?? "tpm2-tss's default TCTI"))", reason: String(cString: lens_tss2_describe(rc)))
            }
            handle = opened
        }

        func close() { lens_tss2_close(handle) }

        func flush(_ object: UInt32) { lens_tss2_flush(handle, object) }

        /// The key loaded under its parent (the owner primary, flushed again at once: the TPM
        /// has few object slots).
        func load(_ key: TPMKeyBlob) throws -> UInt32 {
            let parent: UInt32
            let ownPrimary = key.parent == TPMKeyBlob.ownerHierarchy
            if ownPrimary {
                parent = try call("create the owner primary key") { object in
                    TPMAttestation.ownerPrimaryTemplate.withUnsafeBufferPointer {
                        lens_tss2_create_primary(handle, $0.baseAddress, $0.count, object)
                    }
                }
            } else {
                parent = try call("open the parent key 0x\(TPMAttestation.hex(key.parent))") { lens_tss2_persistent(handle, key.parent, $0) }
            }
            defer { if ownPrimary { flush(parent) } else { lens_tss2_forget(handle, parent) } }
            return try call("load the device key into the TPM") { object in
                key.publicArea.withUnsafeBufferPointer { publicArea in
                    key.privateArea.withUnsafeBufferPointer { privateArea in
                        lens_tss2_load_object(handle, parent, publicArea.baseAddress, publicArea.count,
                                              privateArea.baseAddress, privateArea.count, object)
                    }
                }
            }
        }

        func call(_ operation: String, _ body: (UnsafeMutablePointer<UInt32>) -> UInt32) throws -> UInt32 {
            var object: UInt32 = 0
            try check(operation, body(&object))
            return object
        }

        func check(_ operation: String, _ rc: UInt32) throws {
            guard rc == 0 else { throw CryptoError(operation: operation, reason: String(cString: lens_tss2_describe(rc))) }
        }
    }
}
