/// A TPM2_Certify of a device key and what verifies it, as the attestation attribute of a
/// certificate request (draft-ietf-lamps-csr-attestation, the editors' copy after -18, where the attribute holds one
/// EvidenceBundle; docs/configuration.md, "AL2 evidence from the TPM"):
///
///     id-aa-evidence (1.2.840.113549.1.9.16.2.59) ::= EvidenceBundle
///     EvidenceBundle ::= SEQUENCE { evidences SEQUENCE OF EvidenceStatement,
///                                   certs SEQUENCE OF CertificateChoices }   -- the AK's, the EK's
///     EvidenceStatement ::= SEQUENCE { type tcg-attest-tpm-certify (2.23.133.20.1), stmt TcgAttestCertify }
///     TcgAttestCertify ::= SEQUENCE { tpmSAttest OCTET STRING,   -- TPMS_ATTEST
///                                     signature OCTET STRING,    -- TPMT_SIGNATURE
///                                     keyPubArea OCTET STRING }  -- TPMT_PUBLIC of the device key
public struct TPMKeyEvidence: Sendable {
    public static let attributeOID = "1.2.840.113549.1.9.16.2.59"
    static let tpmCertifyOID = "2.23.133.20.1"

    /// The TPMS_ATTEST the TPM signed, its TPMT_SIGNATURE, and the certified key's TPMT_PUBLIC.
    public var attest: [UInt8]
    public var signature: [UInt8]
    public var keyPublicArea: [UInt8]
    /// The attestation key's certificate, and the TPM's EK certificate when it holds one.
    public var attestationCertificate: Certificate
    public var endorsementCertificate: Certificate?

    public init(attest: [UInt8], signature: [UInt8], keyPublicArea: [UInt8], attestationCertificate: Certificate,
                endorsementCertificate: Certificate?) {
        self.attest = attest
        self.signature = signature
        self.keyPublicArea = keyPublicArea
        self.attestationCertificate = attestationCertificate
        self.endorsementCertificate = endorsementCertificate
    }

    /// The EvidenceBundle, the attribute's value.
    public func evidenceBundle() throws -> [UInt8] {
        let statement = DERWriter.sequence([
            DERWriter.octetString(attest), DERWriter.octetString(signature), DERWriter.octetString(keyPublicArea),
        ])
        let evidence = DERWriter.sequence([try DERWriter.objectIdentifier(Self.tpmCertifyOID), statement])
        let certificates = [attestationCertificate] + (endorsementCertificate.map { [$0] } ?? [])
        return DERWriter.sequence([DERWriter.sequence([evidence]), DERWriter.sequence(certificates.map(\.der))])
    }
}
