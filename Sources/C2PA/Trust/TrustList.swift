import FoundationEssentials
import LensCrypto

/// A list of trusted entities and their CA certificates, as the C2PA Trust List and TSA Trust
/// List are published: ETSI TS 119 602 "LoTE" JSON (`TrustList(lote:source:)`: each entity's name,
/// its services' certificates, and each service's status with the time it began), or a PEM bundle
/// (`TrustList(pemBundle:source:)`: certificates alone, every one trusted). lensd ships no copy.
public struct TrustList: Sendable {
    /// The list's name (LoTE SchemeName), or the file's name for a PEM bundle.
    public var name: String
    /// Where it was read from, for messages.
    public var source: String
    public var issued: Date?
    /// When the list's operator promises the next issue: past it, the list may be stale.
    public var nextUpdate: Date?
    public var entities: [TrustedEntity]

    public init(name: String, source: String, issued: Date? = nil, nextUpdate: Date? = nil, entities: [TrustedEntity]) {
        (self.name, self.source, self.issued, self.nextUpdate, self.entities) = (name, source, issued, nextUpdate, entities)
    }

    /// A list in either form: LoTE JSON when the bytes hold a JSON object, else a PEM bundle.
    public init(contents bytes: [UInt8], source: String) throws {
        if bytes.first(where: { !Self.whitespace.contains($0) }) == UInt8(ascii: "{") {
            try self.init(lote: bytes, source: source)
        } else {
            try self.init(pemBundle: String(decoding: bytes, as: UTF8.self), source: source)
        }
    }

    private static let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF]

    /// Past its NextUpdate at `date`: still used, but the reader should be told.
    public func isStale(at date: Date) -> Bool {
        nextUpdate.map { date > $0 } ?? false
    }
}

/// One entity on a list (LoTE TrustedEntity): a CA operator, named, with its services.
public struct TrustedEntity: Sendable {
    /// LoTE TEName (the English one when there are several).
    public var name: String
    public var services: [TrustedService]

    public init(name: String, services: [TrustedService]) {
        (self.name, self.services) = (name, services)
    }
}

/// One service of an entity: its CA certificates and the history of its status on the list.
public struct TrustedService: Sendable {
    public var name: String?
    public var certificates: [Certificate]
    /// Every status the list records for the service, oldest first.
    public var statuses: [ServiceStatus]

    public init(name: String?, certificates: [Certificate], statuses: [ServiceStatus]) {
        self.name = name
        self.certificates = certificates
        self.statuses = statuses.sorted { ($0.since ?? .distantPast) < ($1.since ?? .distantPast) }
    }

    /// The status in force at `date`: the last that began by then. Before the first recorded one
    /// the first applies (a CA listed today also vouched for what it signed before), so a CA
    /// withdrawn since before `date` is not trusted at `date`, and one withdrawn after it still is.
    public func status(at date: Date) -> ServiceStatus? {
        statuses.last { ($0.since ?? .distantPast) <= date } ?? statuses.first
    }
}

/// A service's status on a list from `since` on: C2PA's lists say `…/trusted` or `…/untrusted`,
/// ETSI's `…/granted` or `…/withdrawn`.
public struct ServiceStatus: Sendable, Equatable {
    /// The status URI as the list gives it.
    public var uri: String
    public var since: Date?

    public init(uri: String, since: Date?) {
        (self.uri, self.since) = (uri, since)
    }

    /// The URI's last segment: "trusted", "withdrawn", …
    public var name: String {
        String(uri.split(separator: "/").last ?? Substring(uri))
    }

    public var isTrusted: Bool {
        ["trusted", "granted"].contains(name.lowercased())
    }
}

/// Where a signer's trust comes from, when a list is: the list, the entity, and the status its
/// CA had at the signing time (`trust_list` in `lensctl verify --json`).
public struct TrustListing: Sendable, Equatable {
    public var list: String
    public var entity: String
    public var service: String?
    public var status: String
    public var since: Date?

    public var isTrusted: Bool { ServiceStatus(uri: status, since: since).isTrusted }
}
