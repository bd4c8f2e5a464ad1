import Foundation

/// Trust lists written by hand in the shape of the official C2PA Trust List (ETSI TS 119 602
/// LoTE JSON, as c2pa-org/conformance-public publishes it: SchemeName, ListIssueDateTime,
/// NextUpdate, TrustedEntitiesList with TEName, TEAddress, TEInformationURI and one service per
/// CA), naming the test PKI's CAs. No copy of the official list is kept in the project.
public enum TestTrustList {
    /// A status the list gives a service from `since` on (C2PA's own status URIs).
    public struct Status {
        public var trusted: Bool
        public var since: Date

        public init(trusted: Bool, since: Date) {
            (self.trusted, self.since) = (trusted, since)
        }

        var json: String {
            """
            "ServiceStatus": "http://c2pa.org/conformance/trust-list/\(trusted ? "trusted" : "untrusted")",
            "StatusStartingTime": "\(TestTrustList.stamp(since))"
            """
        }
    }

    /// One entity with one service holding `certificatePEM`'s certificates; its current status is
    /// the last of `statuses`, the earlier ones are its ServiceHistory.
    public static func lote(name: String = "Lensd Test Trust List", entity: String = "Lensd Test CA Operator",
                     certificatePEM: String, statuses: [Status] = [Status(trusted: true, since: Date(timeIntervalSinceNow: -86_400))],
                     nextUpdate: Date = Date(timeIntervalSinceNow: 365 * 86_400)) -> String {
        let certificates = base64Certificates(certificatePEM).map { "{\"val\": \"\($0)\"}" }.joined(separator: ", ")
        let current = statuses.last!
        let history = statuses.dropLast().reversed().map { status in
            """
            {"ServiceName": [{"lang": "en", "value": "\(entity) Issuing CA"}],
             "ServiceDigitalIdentity": {"X509Certificates": [\(certificates)]},
             \(status.json)}
            """
        }
        let historyField = history.isEmpty ? "" : ",\n\"ServiceHistory\": [\(history.joined(separator: ", "))]"
        return """
        {"LoTE": {
          "ListAndSchemeInformation": {
            "LoTEVersionIdentifier": 1, "LoTESequenceNumber": 7,
            "SchemeName": [{"lang": "en", "value": "\(name)"}],
            "SchemeOperatorName": [{"lang": "en", "value": "lensd tests"}],
            "SchemeInformationURI": [{"lang": "en", "uriValue": "https://lensd.invalid/trust"}],
            "ListIssueDateTime": "\(stamp(Date(timeIntervalSinceNow: -2 * 86_400)))",
            "NextUpdate": "\(stamp(nextUpdate))"
          },
          "TrustedEntitiesList": [{
            "TrustedEntityInformation": {
              "TEName": [{"lang": "de", "value": "\(entity) (de)"}, {"lang": "en", "value": "\(entity)"}],
              "TEAddress": {
                "TEPostalAddress": [{"lang": "en", "StreetAddress": "1 Test Street", "Locality": "Testville", "Country": "US"}],
                "TEElectronicAddress": [{"lang": "en", "uriValue": "mailto:ca@lensd.invalid"}]
              },
              "TEInformationURI": [{"lang": "en", "uriValue": "https://lensd.invalid/ca"}]
            },
            "TrustedEntityServices": [{
              "ServiceInformation": {
                "ServiceName": [{"lang": "en", "value": "\(entity) Issuing CA"}],
                "ServiceDigitalIdentity": {"X509Certificates": [\(certificates)]},
                \(current.json)
              }\(historyField)
            }]
          }]
        }}
        """
    }

    /// The base64 DER of each CERTIFICATE block: its armoured lines joined.
    static func base64Certificates(_ pem: String) -> [String] {
        pem.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().map { block in
            block.components(separatedBy: "-----END CERTIFICATE-----")[0].split(whereSeparator: \.isNewline).joined()
        }
    }

    static func stamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
