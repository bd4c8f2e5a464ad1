import FoundationEssentials
import LensBus
import LensCore
import LensCrypto
import LensIdentity

/// Manager.CreateCertificateRequest and Manager.InstallCertificate: enrolling the device with an
/// organization's CA (`enrollment = org`). Root only (Manager's table): a request is the device speaking for
/// itself, and an installed chain decides whom every future photo names.
struct Enrollment {
    let configuration: Configuration
    let signing: SigningIdentity

    /// Subject options of CreateCertificateRequest; the organization's CA may override any.
    static let subjectKeys = ["commonName", "organization", "organizationalUnit", "country", "dnsNames"]

    func createCertificateRequest(_ call: MethodCall) throws -> MethodResult {
        guard let options = call.arguments.first?.vardictValue else { throw LensError.invalidArgument("options must be a{sv}") }
        var subject = DistinguishedName(commonName: ProcessInfo.processInfo.hostName)
        var dnsNames: [String] = []
        for (key, value) in options {
            switch key {
            case "commonName": subject.commonName = try Self.text(key, value)
            case "organization": subject.organization = try Self.text(key, value)
            case "organizationalUnit": subject.organizationalUnit = try Self.text(key, value)
            case "country": subject.country = try Self.text(key, value)
            case "dnsNames":
                guard let names = value.stringArrayValue else { throw LensError.invalidArgument("dnsNames must be as") }
                dnsNames = names
            default:
                throw LensError.invalidArgument("unknown subject option \(key); known: \(Self.subjectKeys.joined(separator: ", "))")
            }
        }
        do {
            let pem = try OrganizationEnrollment.certificateRequest(configuration.identityConfiguration,
                                                                    subject: subject, dnsNames: dnsNames)
            Log.info("enrollment: certificate request created for \(subject.oneLine)")
            return .reply([.string(pem)])
        } catch {
            throw LensError.invalidArgument(error.problem)
        }
    }

    func installCertificate(_ call: MethodCall) throws -> MethodResult {
        guard let pem = call.arguments.first?.stringValue else { throw LensError.invalidArgument("the chain must be a PEM string") }
        do {
            try OrganizationEnrollment.install(pem, configuration.identityConfiguration)
        } catch {
            Log.warning("enrollment: certificate refused: \(error.problem)")
            throw LensError.invalidArgument("certificate refused: \(error.problem)")
        }
        signing.reload()
        let identity = signing.identity
        Log.info("enrollment: certificate \(identity.fingerprint ?? "?") installed, state \(identity.state.rawValue)")
        var info: [String: BusValue] = ["enrollmentState": .string(identity.state.rawValue)]
        if let certificate = identity.certificate {
            info["subject"] = .string(certificate.subject.oneLine)
            info["issuer"] = .string(certificate.issuer.oneLine)
            info["notAfter"] = Wire.time(certificate.notAfter)
            info["fingerprint"] = .string(identity.fingerprint ?? "")
        }
        return .reply([.vardict(info)])
    }

    private static func text(_ key: String, _ value: BusValue) throws -> String {
        guard let text = value.stringValue, !text.isEmpty else { throw LensError.invalidArgument("\(key) must be a non-empty string") }
        return text
    }
}

extension Configuration {
    /// What DeviceIdentity reads: the embedded default, a configured key and chain, or an
    /// organization's enrollment.
    var identityConfiguration: IdentityConfiguration {
        var identity = IdentityConfiguration(
            stateDirectory: URL(fileURLWithPath: stateDirectory), keyPath: keyPath, chainPath: chainPath,
            trustAnchorPath: trustAnchorPath, deviceName: ProcessInfo.processInfo.hostName)
        identity.enrollment = enrollment
        identity.organizationTrustAnchorPath = organizationTrustAnchorPath
        identity.certificateProfile = certificateProfile
        identity.pkcs11 = pkcs11
        identity.usesTPM = usesTPM
        identity.credentialsDirectory = ProcessInfo.processInfo.environment["CREDENTIALS_DIRECTORY"]
        return identity
    }
}
