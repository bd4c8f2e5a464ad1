import C2PA
import FoundationEssentials

/// Where lensd's device identity comes from: the embedded default under the state directory, or
/// a key and chain the administrator installed (both `keyPath` and `chainPath` set).
public struct IdentityConfiguration: Sendable {
    /// lensd's state directory; the embedded identity lives in `<state>/identity` (0700).
    public var stateDirectory: URL
    /// An administrator-installed private key (PEM, PKCS#8 or SEC1).
    public var keyPath: String?
    /// An administrator-installed certificate chain (PEM), leaf first.
    public var chainPath: String?
    /// The root GetTrustAnchor serves with a configured chain; without it, the chain's last certificate.
    public var trustAnchorPath: String?
    /// The device certificate's CN, e.g. the host name; cut to the 64 characters X.509 allows.
    public var deviceName: String
    /// The device certificate's O=; c2pa-rs shows it as the signer, so it is never left empty.
    public var organization: String
    /// Device certificate lifetime in days, clamped to 1...366: manifests without a time-stamp
    /// turn Invalid when it expires, and a year bounds the damage of a leaked key.
    public var lifetimeDays: Int
    /// `self`: lensd's own device CA (above); `org`: a certificate the organization's CA issued
    /// for the device key, installed with InstallCertificate; `est`: the same, enrolled over EST.
    public var enrollment: Enrollment = .selfIssued
    /// With `org`: the organization's root, the only anchor an installed chain may lead to.
    public var organizationTrustAnchorPath: String?
    /// With `org`: the Conformance Program profile an installed leaf must meet
    /// (`certificate-profile`); nil: c2pa-rs's signer profile only.
    public var certificateProfile: ConformanceLeafProfile?
    /// With `org`: the device key on a PKCS#11 token (`key = pkcs11:…`); nil for a software key.
    public var pkcs11: PKCS11KeyConfiguration?
    /// With `org`: the device key is made inside the TPM (`key = tpm2:`); lensd keeps only the
    /// TPM's wrapped blob, `<state>/enrollment/device.tpm2`.
    public var usesTPM = false
    /// systemd's $CREDENTIALS_DIRECTORY: a `device-key` credential there (LoadCredentialEncrypted=)
    /// is the software device key, read instead of its file.
    public var credentialsDirectory: String?

    public enum Enrollment: String, Sendable {
        case selfIssued = "self"
        case organization = "org"
        /// The organization's CA, reached by lensd itself over EST (RFC 7030): see ESTEnrollment.
        case est

        /// Whether the organization's CA certifies the device key (by hand or over EST).
        public var isOrganization: Bool { self != .selfIssued }
    }

    public init(
        stateDirectory: URL,
        keyPath: String? = nil,
        chainPath: String? = nil,
        trustAnchorPath: String? = nil,
        deviceName: String,
        organization: String = "lensd",
        lifetimeDays: Int = 365
    ) {
        self.stateDirectory = stateDirectory
        self.keyPath = keyPath
        self.chainPath = chainPath
        self.trustAnchorPath = trustAnchorPath
        self.deviceName = deviceName
        self.organization = organization
        self.lifetimeDays = lifetimeDays
    }

    /// True when the administrator configured a credential, so lensd must not make its own.
    var usesConfiguredCredentials: Bool {
        keyPath != nil || chainPath != nil
    }

    var clampedLifetimeDays: Int {
        min(max(lifetimeDays, 1), 366)
    }
}
