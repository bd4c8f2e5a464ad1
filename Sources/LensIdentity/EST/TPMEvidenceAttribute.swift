import LensCrypto

/// With `key = tpm2:` an EST request carries the TPM's evidence that the device key was made in
/// the TPM (TPMAttestation), as the CSR attestation attribute: what a CA asks for before it
/// issues at the C2PA Conformance Program's assurance level 2. Under `certificate-profile =
/// c2pa-al2` a TPM that gives none stops the request, named; otherwise the request goes without
/// (and the CA decides: an AL1 certificate, or a refusal).
enum TPMEvidenceAttribute {
    static func attributes(_ identity: IdentityConfiguration) throws(ESTFailure) -> [(oid: String, value: [UInt8])] {
        guard identity.usesTPM else { return [] }
        do {
            let path = "\(OrganizationIdentity.directory(identity))/\(OrganizationIdentity.tpmBlobFileName)"
            let blob = try CredentialFile.read(path, "the TPM key blob", isSecret: true, remedy: "remove \(path) and enroll again")
            return [(TPMKeyEvidence.attributeOID, try TPMAttestation.certify(blob: blob).evidenceBundle())]
        } catch {
            guard identity.certificateProfile != .al2 else {
                throw .local("certificate-profile = c2pa-al2 needs the TPM's evidence for the device key, and the TPM gave none: \(error)")
            }
            return []
        }
    }
}
