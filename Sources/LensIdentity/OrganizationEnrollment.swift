import FoundationEssentials
import LensCrypto

/// The two steps of enrolling with an organization's CA (`enrollment = org`): a certificate
/// request signed by the device key, and installing the chain the CA issued for it.
public enum OrganizationEnrollment {
    /// A PKCS#10 request for the device key, made first in its backend when there is none.
    public static func certificateRequest(_ configuration: IdentityConfiguration, subject: DistinguishedName,
                                          dnsNames: [String]) throws(IdentityFailure) -> String {
        try requireOrganization(configuration)
        guard let key = try OrganizationIdentity.deviceKey(configuration, create: true) else {
            throw IdentityFailure(.missing, "the device key could not be created")
        }
        do {
            return try CertificateRequest.make(subject: subject, dnsNames: dnsNames, key: key)
        } catch {
            throw IdentityFailure(.invalid, "cannot create the certificate request: \(error)")
        }
    }

    /// Installs `chainPEM` (leaf first, then intermediates) when the leaf certifies the device
    /// key, meets the C2PA signing-certificate profile, is valid at `now` and leads to the
    /// organization's root — the same checks as at start-up. Otherwise nothing changes. `key`:
    /// the key the chain must certify when it is not (yet) the device key, as in an EST renewal.
    public static func install(_ chainPEM: String, _ configuration: IdentityConfiguration, now: Date = Date(),
                               key offered: (any SigningKey)? = nil) throws(IdentityFailure) {
        try requireOrganization(configuration)
        let anchor = try OrganizationIdentity.trustAnchor(configuration)
        let existing = offered == nil ? try OrganizationIdentity.deviceKey(configuration, create: false) : nil
        guard let key = offered ?? existing else {
            throw IdentityFailure(.missing, "there is no device key to certify; run lensctl enroll request first")
        }
        let chain: [Certificate]
        do { chain = try Certificate.parsePEM(chainPEM) } catch {
            throw IdentityFailure(.invalid, "the chain is not PEM certificates: \(error)")
        }
        guard !chain.isEmpty else { throw IdentityFailure(.invalid, "the chain holds no certificate") }
        if let profile = configuration.certificateProfile {
            let missing = profile.missing(in: chain[0])
            guard missing.isEmpty else {
                throw IdentityFailure(.invalid, "the certificate does not meet certificate-profile = \(profile.rawValue): it lacks "
                                      + missing.joined(separator: "; "))
            }
        }
        let material = OrganizationIdentity.material(key: key, chain: chain, anchor: anchor, chainPath: "the offered chain", configuration)
        _ = try material.makeSigner(now: now)
        do {
            // The certificates as parsed, so that nothing else the offered text held is kept.
            let canonical = chain.map(\.pem).joined()
            try OrganizationIdentity.store(Array(canonical.utf8), as: OrganizationIdentity.chainFileName, mode: 0o644, configuration)
        } catch {
            throw IdentityFailure(.invalid, "cannot store the chain in \(OrganizationIdentity.directory(configuration)): \(error)")
        }
    }

    private static func requireOrganization(_ configuration: IdentityConfiguration) throws(IdentityFailure) {
        guard configuration.enrollment.isOrganization else {
            throw IdentityFailure(.invalid, "lensd enrolls itself (enrollment = self); set enrollment = org and org-trust-anchor first")
        }
    }
}
