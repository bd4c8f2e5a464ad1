import FoundationEssentials
import LensCrypto

extension TrustList {
    /// An ETSI TS 119 602 list of trusted entities ("LoTE", JSON binding), as the C2PA Trust
    /// List is published: `LoTE.ListAndSchemeInformation` (SchemeName, ListIssueDateTime,
    /// NextUpdate) and `LoTE.TrustedEntitiesList[]` (TrustedEntityInformation.TEName, and
    /// TrustedEntityServices[] with ServiceInformation — ServiceName, ServiceDigitalIdentity
    /// .X509Certificates[].val, ServiceStatus, StatusStartingTime — and ServiceHistory[]). Fields
    /// lensd does not use are not read. Throws, naming the field, when one it uses is malformed.
    public init(lote bytes: [UInt8], source: String) throws {
        let root: Any
        do { root = try JSONParser.parse(bytes) } catch {
            throw C2PAError.malformed("\(source) is not JSON: \(error)")
        }
        guard let lote = (root as? [String: Any])?["LoTE"] as? [String: Any],
              let scheme = lote["ListAndSchemeInformation"] as? [String: Any] else {
            throw C2PAError.malformed("\(source) has no LoTE.ListAndSchemeInformation")
        }
        let read = LoTEReader(source: source)
        let name = try read.multilingual(scheme["SchemeName"], "SchemeName", optional: true)
            ?? read.multilingual(scheme["SchemeOperatorName"], "SchemeOperatorName", optional: true) ?? source
        let entities = try read.list(lote["TrustedEntitiesList"], "TrustedEntitiesList", optional: true).enumerated().map { index, item in
            try read.entity(item, "TrustedEntitiesList[\(index)]")
        }
        self.init(name: name, source: source, issued: try read.date(scheme["ListIssueDateTime"], "ListIssueDateTime"),
                  nextUpdate: try read.date(scheme["NextUpdate"], "NextUpdate"), entities: entities)
    }

    /// A PEM bundle (the C2PA lists' other form): every certificate trusted, named by the
    /// organization (else the common name) in its subject.
    public init(pemBundle text: String, source: String) throws {
        let certificates: [Certificate]
        do { certificates = try Certificate.parsePEM(text) } catch {
            throw C2PAError.malformed("\(source) holds no PEM certificate (\(error))")
        }
        let entities = certificates.map { certificate in
            TrustedEntity(name: certificate.subject.organization ?? certificate.subject.commonName ?? certificate.subject.oneLine,
                          services: [TrustedService(name: certificate.subject.commonName, certificates: [certificate],
                                                    statuses: [ServiceStatus(uri: "trusted", since: nil)])])
        }
        let file = source.split(separator: "/").last.map(String.init) ?? source
        self.init(name: file, source: source, entities: entities)
    }
}

/// Typed reads of LoTE's JSON, each failure naming the list and the field.
private struct LoTEReader {
    let source: String

    func fail(_ path: String, _ why: String) -> C2PAError { .malformed("\(source): \(path) \(why)") }

    func list(_ value: Any?, _ path: String, optional: Bool = false) throws -> [Any] {
        guard let value else {
            if optional { return [] }
            throw fail(path, "is missing")
        }
        guard let items = value as? [Any] else { throw fail(path, "is not a list") }
        return items
    }

    func object(_ value: Any?, _ path: String) throws -> [String: Any] {
        guard let object = value as? [String: Any] else { throw fail(path, value == nil ? "is missing" : "is not an object") }
        return object
    }

    /// A multilingual string list: the English value, else the first.
    func multilingual(_ value: Any?, _ path: String, optional: Bool = false) throws -> String? {
        let items = try list(value, path, optional: optional).map { try object($0, path) }
        if items.isEmpty && optional { return nil }
        let chosen = items.first { ($0["lang"] as? String)?.lowercased().hasPrefix("en") == true } ?? items.first
        guard let text = chosen?["value"] as? String else { throw fail(path, "has no value") }
        return text
    }

    func date(_ value: Any?, _ path: String) throws -> Date? {
        guard let value else { return nil }
        guard let text = value as? String, let date = Timestamps.parseRFC3339(text) else { throw fail(path, "is not a date-time") }
        return date
    }

    func entity(_ value: Any, _ path: String) throws -> TrustedEntity {
        let entity = try object(value, path)
        let information = try object(entity["TrustedEntityInformation"], "\(path).TrustedEntityInformation")
        let name = try multilingual(information["TEName"], "\(path).TrustedEntityInformation.TEName")!
        let services = try list(entity["TrustedEntityServices"], "\(path).TrustedEntityServices").enumerated().map { index, item in
            try service(item, "\(path).TrustedEntityServices[\(index)]")
        }
        return TrustedEntity(name: name, services: services)
    }

    func service(_ value: Any, _ path: String) throws -> TrustedService {
        let service = try object(value, path)
        let information = try object(service["ServiceInformation"], "\(path).ServiceInformation")
        let identity = try object(information["ServiceDigitalIdentity"], "\(path).ServiceInformation.ServiceDigitalIdentity")
        let certificates = try list(identity["X509Certificates"], "\(path).ServiceDigitalIdentity.X509Certificates", optional: true)
            .enumerated().map { index, item in
                let field = "\(path).ServiceDigitalIdentity.X509Certificates[\(index)]"
                guard let text = try object(item, field)["val"] as? String,
                      let der = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else { throw fail(field, "has no base64 val") }
                do { return try Certificate(der: Array(der)) } catch { throw fail(field, "is not a certificate (\(error))") }
            }
        var statuses = try status(information, "\(path).ServiceInformation").map { [$0] } ?? []
        for (index, item) in try list(service["ServiceHistory"], "\(path).ServiceHistory", optional: true).enumerated() {
            let field = "\(path).ServiceHistory[\(index)]"
            guard let status = try status(try object(item, field), field) else { throw fail(field, "has no ServiceStatus") }
            statuses.append(status)
        }
        return TrustedService(name: try multilingual(information["ServiceName"], "\(path).ServiceName", optional: true),
                              certificates: certificates, statuses: statuses.isEmpty ? [ServiceStatus(uri: "trusted", since: nil)] : statuses)
    }

    private func status(_ object: [String: Any], _ path: String) throws -> ServiceStatus? {
        guard let value = object["ServiceStatus"] else { return nil }
        guard let uri = value as? String else { throw fail("\(path).ServiceStatus", "is not a URI") }
        return ServiceStatus(uri: uri, since: try date(object["StatusStartingTime"], "\(path).StatusStartingTime"))
    }
}
