import FoundationEssentials
import LensSystem
import LensClient

/// `lensctl enroll`: enrolling this device with an organization's CA (root only).
enum EnrollCommand: Command {
    static let name = "enroll"
    static let synopsis = "enroll request|install|status  enroll the device with an organization's CA (root only)"
    static let help = """
    usage: lensctl enroll request [--subject DN] [--dns NAME]... [--profile c2pa-al1|c2pa-al2] [--bus ADDRESS] > device.csr
           lensctl enroll install CHAIN.pem|- [--bus ADDRESS] [--json]
           lensctl enroll status [--bus ADDRESS] [--json]

    For lensd configured with enrollment = org (see lensd.conf(5)).
    request  prints a PKCS#10 certificate request (PEM) signed by the device key, creating the
             key in its backend (PKCS#11 token or state directory) when there is none yet.
             --subject takes C=, O=, OU= and CN= separated by ',' or '/', e.g.
             "O=Example News,OU=Cameras,CN=cam-07" (default CN: the host name);
             --dns adds a subjectAltName DNS name (repeatable). --profile, lensd's
             certificate-profile: --subject must then name C, O and CN, and the
             extensions the CA must put in the leaf are printed on stderr.
    install  installs the chain the organization's CA issued (leaf first, then intermediates);
             lensd refuses it, changing nothing, unless it certifies the device key, meets the
             C2PA signing-certificate profile, is valid now and leads to org-trust-anchor.
             Then it says, item by item, what the leaf misses of the C2PA Conformance
             Program's AL1 and AL2 claim-signing leaf profiles (c2pa-al1, c2pa-al2).
    status   the enrollment state and the certificate's expiry; with enrollment = est, also
             what lensd's last EST attempt met and when it tries again; and, as install does,
             what the certificate misses of the AL1 and AL2 leaf profiles.
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv, options: ["--subject", "--dns", "--profile"])
        guard let step = args.positionals.first else { throw CommandFailure(.usage, "enroll needs request, install or status") }
        let camera = try Connection.camera(args)
        switch step {
        case "request":
            _ = try args.positionals(1, "enroll request takes no file")
            let subject = try parseSubject(args.last("--subject") ?? "")
            let profile = try ProfileRequest(args.last("--profile"))
            try profile?.checkSubject(subject)
            let dns = args.all("--dns")
            let pem = try Connection.client { () throws(LensClientError) in try camera.createCertificateRequest(subject: subject, dnsNames: dns) }
            if args.json {
                Output.json(CertificateRequestJSON(pem: pem, profile))
            } else {
                Output.line(pem.hasSuffix("\n") ? String(pem.dropLast()) : pem)
                if let profile { Output.note(profile.text) }
            }
        case "install":
            let path = try args.positionals(2, "enroll install takes one chain file (or - for stdin)")[1]
            let pem = try readChain(path)
            let installed = try Connection.client { () throws(LensClientError) in try camera.installCertificate(chainPEM: pem) }
            let profile = LeafProfileReport(chainPEM: pem)
            if args.json {
                Output.json(EnrollmentJSON(installed, profile: profile))
            } else {
                Output.line("installed \(installed.subject), issued by \(installed.issuer), valid until \(Output.iso8601(installed.notAfter))")
                Output.line("enrollment: \(installed.enrollmentState); fingerprint \(installed.fingerprint)")
                profile?.lines.forEach(Output.line)
            }
        case "status":
            _ = try args.positionals(1, "enroll status takes no arguments")
            let status = try Connection.client { () throws(LensClientError) in try camera.status() }
            // Only a device with a certificate has a chain to judge.
            let profile = status.certificateNotAfter == nil ? nil
                : LeafProfileReport(chainPEM: try Connection.client { () throws(LensClientError) in try camera.certificateChain() })
            if args.json {
                Output.json(EnrollmentStatusJSON(enrollment_state: status.enrollmentState, certificate_not_after: status.certificateNotAfter,
                                                 certificate_renew_after: status.certificateRenewAfter,
                                                 renewal_due: Describe.renewalIsDue(status), est: status.est.map(ESTStatusJSON.init),
                                                 profile: profile))
            } else {
                Output.line("enrollment: \(status.enrollmentState)\(Describe.certificateExpiry(status))")
                if let est = status.est { Output.line(Describe.est(est)) }
                profile?.lines.forEach(Output.line)
            }
        default:
            throw CommandFailure(.usage, "unknown enroll step \(step); use request, install or status")
        }
        return .ok
    }

    /// "O=Org,OU=Unit,CN=name" or "/O=Org/CN=name" (as openssl writes it).
    static func parseSubject(_ text: String) throws -> [String: String] {
        let keys = ["C": "country", "O": "organization", "OU": "organizationalUnit", "CN": "commonName"]
        var subject: [String: String] = [:]
        for part in text.split(whereSeparator: { $0 == "," || $0 == "/" }) {
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmed() }
            guard pieces.count == 2, let key = keys[pieces[0].uppercased()], !pieces[1].isEmpty else {
                throw CommandFailure(.usage, "--subject: \(part) is not C=, O=, OU= or CN= with a value")
            }
            subject[key] = pieces[1]
        }
        return subject
    }

    private static func readChain(_ path: String) throws -> String {
        guard let text = String(validating: try Output.readInput(path == "-" ? "/dev/stdin" : path), as: UTF8.self) else {
            throw CommandFailure(.unreadableInput, "\(path) is not PEM text")
        }
        return text
    }
}

struct EnrollmentJSON: Encodable {
    var enrollment_state: String
    var subject: String
    var issuer: String
    var not_after: Date
    var fingerprint: String
    /// The leaf against the Conformance Program's AL1 and AL2 leaf profiles.
    var profile: LeafProfileReport?

    init(_ enrollment: LensEnrollment, profile: LeafProfileReport?) {
        self.profile = profile
        enrollment_state = enrollment.enrollmentState
        subject = enrollment.subject
        issuer = enrollment.issuer
        not_after = enrollment.notAfter
        fingerprint = enrollment.fingerprint
    }
}

struct EnrollmentStatusJSON: Encodable {
    var enrollment_state: String
    var certificate_not_after: Date?
    var certificate_renew_after: Date?
    var renewal_due: Bool
    var est: ESTStatusJSON?
    /// The installed leaf against the Conformance Program's AL1 and AL2 leaf profiles.
    var profile: LeafProfileReport?
}

struct ESTStatusJSON: Encodable {
    var last_attempt: Date?
    var next_attempt: Date?
    var last_error: String?

    init(_ status: LensESTStatus) {
        last_attempt = status.lastAttempt
        next_attempt = status.nextAttempt
        last_error = status.lastError
    }
}
