import CTSS2
import Glibc

/// Evidence that a `key = tpm2:` device key was made inside the TPM and cannot leave it: a
/// TPM2_Certify of the key by the TPM's attestation key (AK), which the TPM signs only for objects
/// it holds, naming the key's public area (its attributes fixedTPM, fixedParent,
/// sensitiveDataOrigin included). The AK is a restricted signing key — it signs nothing that
/// looks like a TPM attestation unless the TPM made it — that the device's maker (or an AK CA)
/// provisioned at persistent handle 0x81020000, with its certificate in NV index 0x01C90000,
/// issued once a credential activation against the TPM's EK had shown the AK lives beside that
/// EK. The EK certificate (the TCG's RSA 2048 index) goes along when the TPM holds one.
///
/// Talks to the TPM through tpm2-tss (CTSS2) on its own connection, beside OpenSSL's tpm2
/// provider: the same TCTI (TPM2OPENSSL_TCTI, else tpm2-tss's default, the kernel's resource
/// manager), which must let two clients share the TPM (/dev/tpmrm0 or tpm2-abrmd).
public enum TPMAttestation {
    static let attestationKeyHandle: UInt32 = 0x8102_0000
    static let attestationCertificateIndex: UInt32 = 0x01C9_0000
    /// The TCG EK Credential Profile's index of the RSA 2048 EK certificate.
    static let endorsementCertificateIndex: UInt32 = 0x01C0_0002
    static let sha256: UInt16 = 0x000B

    /// The owner hierarchy's primary as tpm2-openssl 1.1 makes it for `parent = TPM2_RH_OWNER`
    /// (a marshaled TPM2B_PUBLIC): ECC P-256, SHA-256 names, AES-128-CFB, restricted decrypt,
    /// fixedTPM, fixedParent, sensitiveDataOrigin, userWithAuth, noDA. The same template gives
    /// the same key, so the blob loads under it.
    static let ownerPrimaryTemplate: [UInt8] = [
        0x00, 0x1A, 0x00, 0x23, 0x00, 0x0B, 0x00, 0x03, 0x04, 0x72, 0x00, 0x00, 0x00, 0x06, 0x00, 0x80,
        0x00, 0x43, 0x00, 0x10, 0x00, 0x03, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00,
    ]

    /// TPM2_Certify of the key `blob` (TPMKey's) names, by the AK, with the AK's certificate
    /// (and the EK's, when the TPM holds one).
    public static func certify(blob: String) throws -> TPMKeyEvidence {
        let key = try TPMKeyBlob(pem: blob)
        guard let keyPublicArea = key.publicContents else {
            throw CryptoError(operation: "read the TPM key blob", reason: "its public area's size does not match")
        }
        let tpm = try Connection()
        defer { tpm.close() }
        let object = try tpm.load(key)
        defer { tpm.flush(object) }
        let signer = try tpm.call("open the attestation key 0x\(hex(attestationKeyHandle)) (is one provisioned?)") {
            lens_tss2_persistent(tpm.handle, attestationKeyHandle, $0)
        }
        defer { lens_tss2_forget(tpm.handle, signer) }
        var attest = [UInt8](repeating: 0, count: 2048), signature = [UInt8](repeating: 0, count: 1024)
        var attestLength = 0, signatureLength = 0
        try tpm.check("TPM2_Certify of the device key by the attestation key (an ECDSA signing key with SHA-256)",
                      lens_tss2_certify_ecdsa(tpm.handle, object, signer, sha256, nil, 0, &attest, attest.count, &attestLength,
                                              &signature, signature.count, &signatureLength))
        return TPMKeyEvidence(attest: Array(attest.prefix(attestLength)), signature: Array(signature.prefix(signatureLength)),
                              keyPublicArea: keyPublicArea,
                              attestationCertificate: try tpm.certificate(at: attestationCertificateIndex, "the AK certificate"),
                              endorsementCertificate: try? tpm.certificate(at: endorsementCertificateIndex, "the EK certificate"))
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

        func certificate(at index: UInt32, _ what: String) throws -> Certificate {
            var der = [UInt8](repeating: 0, count: 4096), length = 0
            try check("read \(what) (NV 0x\(TPMAttestation.hex(index)))", lens_tss2_nv_read(handle, index, &der, der.count, &length))
            return try Certificate(der: Array(der.prefix(length)))
        }

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
