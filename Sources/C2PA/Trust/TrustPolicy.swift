import FoundationEssentials
import LensCrypto

/// Whom a verifier trusts, as c2pa-rs's trust settings say it and the C2PA trust lists publish
/// it: loose trust anchors, trust lists (whose entities and withdrawals it names), end-entity
/// certificates trusted as they are (c2pa-rs's `allowed_list`), and extra extended key usages a
/// signer may have (`trust_config`). The same for lensctl, lensd and the app.
public struct TrustPolicy: Sendable {
    /// Roots (or intermediates) trusted for signers and time-stamp authorities alike.
    public var anchors: [Certificate]
    /// Roots trusted for time-stamp authorities only.
    public var timeStampAnchors: [Certificate]
    /// Lists of signers' CAs (C2PA Trust List); their CAs vouch for time-stamp authorities too, as
    /// c2pa-rs's trust anchors do.
    public var lists: [TrustList]
    /// Lists of time-stamp authorities' CAs (C2PA TSA Trust List).
    public var timeStampLists: [TrustList]
    /// SHA-256 digests of signing certificates trusted as they are, with no chain.
    public var allowedCertificates: Set<[UInt8]>
    /// Extended key usages (dotted OIDs) a signer may have besides the ones c2pa-rs always accepts.
    public var extendedKeyUsages: Set<String>

    public init(anchors: [Certificate] = [], timeStampAnchors: [Certificate] = [], lists: [TrustList] = [],
                timeStampLists: [TrustList] = [], allowedCertificates: Set<[UInt8]> = [], extendedKeyUsages: Set<String> = []) {
        self.anchors = anchors
        self.timeStampAnchors = timeStampAnchors
        self.lists = lists
        self.timeStampLists = timeStampLists
        self.allowedCertificates = allowedCertificates
        self.extendedKeyUsages = extendedKeyUsages
    }

    /// Whether any anchor or list may vouch for a time-stamp authority (with none, c2pa-rs takes
    /// every time-stamp's authority as trusted).
    var trustsTimeStampAuthorities: Bool {
        !(anchors.isEmpty && timeStampAnchors.isEmpty && lists.isEmpty && timeStampLists.isEmpty)
    }

    /// What `evaluate` found.
    enum Finding {
        /// `listing`: the list entry the chain reaches, when it reaches one.
        case trusted(TrustListing?)
        /// `listing`: a list entry the chain reaches whose status at the signing time is not trusted.
        case untrusted(reason: String, listing: TrustListing?)
    }

    /// Whether the signer `leaf` (with `intermediates`) is trusted: its certificate allowed as it
    /// is, or a chain to an anchor or to a listed CA trusted at `signingTime` (the trusted
    /// time-stamp's time, else now). `chainTime`: the time the chain's validity is checked at (nil:
    /// not checked). As c2pa-rs's trust check, an anchor must have issued a certificate of the
    /// chain: the leaf itself given as an anchor does not make its own signature trusted.
    func evaluate(leaf: Certificate, intermediates: [Certificate], signingTime: Date, chainTime: Date?) -> Finding {
        if allowedCertificates.contains(leaf.sha256Fingerprint) { return .trusted(nil) }
        let issuers = Self.issuers(of: leaf, anchors)
        let looseProblem = ChainVerifier.verify(leaf: leaf, intermediates: intermediates, anchors: issuers, at: chainTime)
        if looseProblem == nil, lists.isEmpty { return .trusted(nil) }
        var withdrawn: TrustListing?
        for entry in Self.entries(of: lists) where Self.mayIssue(entry.certificate, leaf: leaf, intermediates: intermediates) {
            guard ChainVerifier.verify(leaf: leaf, intermediates: intermediates, anchors: [entry.certificate], at: chainTime) == nil
            else { continue }
            let status = entry.service.status(at: signingTime)
            let listing = TrustListing(list: entry.list.name, entity: entry.entity.name, service: entry.service.name,
                                       status: status?.name ?? "trusted", since: status?.since)
            if status?.isTrusted ?? true { return .trusted(listing) }
            withdrawn = withdrawn ?? listing
        }
        if looseProblem == nil { return .trusted(nil) }
        if let withdrawn {
            let since = withdrawn.since.map { " since \(Timestamps.rfc3339UTC($0))" } ?? ""
            return .untrusted(reason: "\(withdrawn.entity) is \(withdrawn.status) on \(withdrawn.list)\(since)", listing: withdrawn)
        }
        return .untrusted(reason: looseProblem ?? "no trust anchor", listing: nil)
    }

    /// The anchors a time-stamp authority's certificate is judged against at `date`: every loose
    /// anchor and every listed CA whose status then is trusted.
    func timeStampAnchors(at date: Date) -> [Certificate] {
        anchors + timeStampAnchors + Self.entries(of: lists + timeStampLists)
            .filter { $0.service.status(at: date)?.isTrusted ?? true }.map(\.certificate)
    }

    /// The anchors a stapled OCSP responder's chain is judged against.
    func responderAnchors(at date: Date) -> [Certificate] {
        anchors + Self.entries(of: lists).filter { $0.service.status(at: date)?.isTrusted ?? true }.map(\.certificate)
    }

    /// The extended key usages a signer may have under this policy.
    var signerExtendedKeyUsages: Set<String> {
        SigningCertificateProfile.readerExtendedKeyUsages.union(extendedKeyUsages)
    }

    // MARK: Helpers

    private struct Entry {
        let list: TrustList
        let entity: TrustedEntity
        let service: TrustedService
        let certificate: Certificate
    }

    private static func entries(of lists: [TrustList]) -> [Entry] {
        lists.flatMap { list in
            list.entities.flatMap { entity in
                entity.services.flatMap { service in
                    service.certificates.map { Entry(list: list, entity: entity, service: service, certificate: $0) }
                }
            }
        }
    }

    /// Anchors other than the leaf itself (unless it issued itself).
    private static func issuers(of leaf: Certificate, _ anchors: [Certificate]) -> [Certificate] {
        leaf.isSelfIssued ? anchors : anchors.filter { $0 != leaf }
    }

    /// A cheap test before the chain is built: the CA issued the leaf or an intermediate, or is one.
    private static func mayIssue(_ ca: Certificate, leaf: Certificate, intermediates: [Certificate]) -> Bool {
        guard ca != leaf || leaf.isSelfIssued else { return false }
        return ([leaf] + intermediates).contains { $0.issuer == ca.subject || $0 == ca }
    }
}
