import LensBus

/// Enrolling the device with an organization's CA (root only; lensd configured with enrollment = org).
extension LensCamera {
    /// A PKCS#10 request (PEM) signed by the device key. `subject` keys: commonName,
    /// organization, organizationalUnit, country; `dnsNames` become the subjectAltName.
    public func createCertificateRequest(subject: [String: String], dnsNames: [String] = []) throws(LensClientError) -> String {
        var options = subject.mapValues { BusValue.string($0) }
        if !dnsNames.isEmpty { options["dnsNames"] = .array(elementSignature: "s", dnsNames.map { .string($0) }) }
        return try Reply.single(try managerCall("CreateCertificateRequest", [.vardict(options)]), "CreateCertificateRequest") {
            $0.stringValue
        }
    }

    /// Installs the chain the organization's CA issued (leaf first, PEM); the answer describes
    /// the installed certificate.
    public func installCertificate(chainPEM: String) throws(LensClientError) -> LensEnrollment {
        let reply = try managerCall("InstallCertificate", [.string(chainPEM)])
        guard reply.count == 1 else { throw .internal("lensd answered InstallCertificate with \(reply)") }
        return try LensEnrollment(try Fields(reply[0], "InstallCertificate's answer"))
    }
}
