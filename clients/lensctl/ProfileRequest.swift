import C2PA

/// What `enroll request --profile c2pa-al1|c2pa-al2` adds: the profile's subject (C, O, CN, as
/// the Conforming Products List entry names the product) is required, and the extensions the
/// organization's CA must put in the leaf are said, in one block on stderr (stdout stays the
/// request) or in `--json`.
struct ProfileRequest {
    let profile: ConformanceLeafProfile

    /// The subject attributes the profile requires, as `--subject` and `parseSubject` name them.
    private static let subjectAttributes = [("C", "country"), ("O", "organization"), ("CN", "commonName")]

    /// nil without `--profile`.
    init?(_ name: String?) throws {
        guard let name else { return nil }
        guard let profile = ConformanceLeafProfile(rawValue: name) else {
            throw CommandFailure(.usage, "--profile takes " + ConformanceLeafProfile.allCases.map(\.rawValue).joined(separator: " or ")
                                 + ", not \(name)")
        }
        self.profile = profile
    }

    /// Refuses a `--subject` (as parsed) without the profile's C, O and CN.
    func checkSubject(_ subject: [String: String]) throws {
        let missing = Self.subjectAttributes.filter { subject[$0.1] == nil }.map(\.0)
        guard missing.isEmpty else {
            throw CommandFailure(.usage, "--profile \(profile.rawValue) needs --subject with C=, O= and CN= "
                                 + "(the product's Conforming Products List names); it lacks \(missing.joined(separator: ", "))")
        }
    }

    /// The block: what to issue, as an `openssl ca -extensions` section, and what the placeholders stand for.
    var text: String {
        let section = profile.rawValue.replacing("-", with: "_")
        return (["\(profile.rawValue): the CA must issue the leaf with these extensions (an openssl ca -extensions section) "
                 + "and a validity of at most \(profile.maximumValidityDays) days:", "  [\(section)]"]
                + profile.caExtensions.map { "  " + $0 }
                + ["  \(ConformanceLeafProfile.ocspURLPlaceholder): the http URL of the CA's OCSP responder; "
                   + "\(ConformanceLeafProfile.cplRecordPlaceholder): the product's Conforming Products List record ID"])
            .joined(separator: "\n")
    }
}

/// `enroll request --json`: the request, and with `--profile` what the CA must issue.
struct CertificateRequestJSON: Encodable {
    var pem: String
    var profile: String?
    var ca_extensions: [String]?
    var validity_days: Int?

    init(pem: String, _ request: ProfileRequest?) {
        self.pem = pem
        profile = request?.profile.rawValue
        ca_extensions = request?.profile.caExtensions
        validity_days = request?.profile.maximumValidityDays
    }
}
