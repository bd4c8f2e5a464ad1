import C2PA
import LensCrypto

/// What `enroll install` and `enroll status` say of the installed leaf against the C2PA
/// Conformance Program's claim-signing leaf profiles (AL1, AL2), item by item; the `profile`
/// object of their `--json`.
struct LeafProfileReport: Encodable {
    struct Finding: Encodable {
        var met: Bool
        var missing: [String]
    }

    let findings: [(profile: ConformanceLeafProfile, missing: [String])]

    /// nil when the chain's first certificate does not parse (the daemon has judged it by then).
    init?(chainPEM: String) {
        guard let leaf = try? Certificate.parsePEM(chainPEM).first else { return nil }
        findings = ConformanceLeafProfile.allCases.map { ($0, $0.missing(in: leaf)) }
    }

    /// One line per profile: "c2pa-al1 profile: met", or what it misses.
    var lines: [String] {
        findings.map { "\($0.profile.rawValue) profile: " + ($0.missing.isEmpty ? "met" : "not met: " + $0.missing.joined(separator: "; ")) }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: ProfileKey.self)
        for finding in findings {
            try container.encode(Finding(met: finding.missing.isEmpty, missing: finding.missing), forKey: ProfileKey(finding.profile.rawValue))
        }
    }

    private struct ProfileKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
