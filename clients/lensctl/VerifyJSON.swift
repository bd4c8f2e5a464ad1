import C2PA
import FoundationEssentials

/// The `verify --json` shape, named as c2pa-rs (c2patool, c2pa-python's Reader.json) names the same things.
struct VerifyJSON: Encodable {
    struct Status: Encodable {
        var code: String
        var explanation: String
        var url: String?

        init(_ status: ValidationStatus) {
            (code, explanation, url) = (status.code, status.explanation, status.url)
        }
    }

    struct StatusCodes: Encodable {
        var success: [Status]
        var informational: [Status]
        var failure: [Status]

        init(_ statuses: [ValidationStatus]) {
            func of(_ kind: ValidationStatus.Kind) -> [Status] { statuses.filter { $0.kind == kind }.map(Status.init) }
            (success, informational, failure) = (of(.success), of(.informational), of(.failure))
        }
    }

    struct Delta: Encodable {
        var ingredientAssertionURI: String
        var validationDeltas: StatusCodes
    }

    struct Results: Encodable {
        var success: [Status]
        var informational: [Status]
        var failure: [Status]
        var ingredientDeltas: [Delta]
    }

    struct SignatureInfo: Encodable {
        var issuer: String?
        var common_name: String?
        var subject: String
        var alg: String
        var cert_not_before: Date
        var cert_not_after: Date
        /// The time-stamp's genTime, when one verified and its TSA is trusted.
        var time: Date?
        /// With `time`: the TSA certificate's subject.
        var time_stamp_authority: String?
        /// What a usable OCSP response stapled to the signature says.
        var ocsp: OCSP?

        init(_ signer: SignerSummary) {
            issuer = signer.subject.organization
            common_name = signer.subject.commonName
            subject = signer.subject.oneLine
            alg = signer.algorithm
            cert_not_before = signer.notBefore
            cert_not_after = signer.notAfter
            time = signer.timeStamp
            time_stamp_authority = signer.timeStampAuthority?.oneLine
            ocsp = signer.revocation.map(OCSP.init)
        }
    }

    struct OCSP: Encodable {
        /// "not_revoked", "revoked", or "revoked_after_signing" (after a time-stamped signing time).
        var status: String
        var source = "stapled"
        var produced_at: Date
        var revoked_at: Date?
        var next_update: Date?

        init(_ revocation: Revocation) {
            switch revocation.finding {
            case .notRevoked: status = "not_revoked"
            case .revoked: status = "revoked"
            case .silent: status = "revoked_after_signing"
            }
            produced_at = revocation.producedAt
            if case .revoked(let at, _)? = revocation.verdict { revoked_at = at }
            next_update = revocation.answer?.nextUpdate
        }
    }

    struct Ingredient: Encodable {
        var title: String?
        var relationship: String?
        var active_manifest: String?
    }

    struct Manifest: Encodable {
        var label: String
        var update: Bool
        var claim_version: Int?
        var claim_generator: String?
        var title: String?
        var signature_info: SignatureInfo?
        var actions: [ActionSummary]
        var assertions: [String]
        var ingredients: [Ingredient]
        /// CAWG identity assertions: signature type and, for X.509, the signer and its verdict.
        var identities: [String]

        init(_ manifest: ManifestSummary) {
            label = manifest.label
            update = manifest.isUpdate
            claim_version = manifest.claimVersion
            claim_generator = manifest.claimGenerator
            title = manifest.title
            signature_info = manifest.signer.map(SignatureInfo.init)
            actions = manifest.actions
            assertions = manifest.assertions
            ingredients = manifest.ingredients.map { Ingredient(title: $0.title, relationship: $0.relationship, active_manifest: $0.manifest) }
            identities = manifest.identities
        }
    }

    /// The trust list entry the signer's CA is on: `status` is its status at the signing time.
    struct TrustListEntry: Encodable {
        var list: String
        var entity: String
        var status: String
    }

    struct Location: Encodable {
        var latitude: Double
        var longitude: Double
        var accuracy_m: Double?
    }

    var file: String
    var validation_state: String
    /// Every failure, the ingredients' included, as in c2pa-rs's `validation_status`.
    var validation_status: [Status]
    var validation_results: Results
    var active_manifest: String?
    var claim_version: Int?
    var claim_generator: String?
    var signature_info: SignatureInfo?
    var trust_list: TrustListEntry?
    var when: String?
    var location: Location?
    var device: String?
    var actions: [ActionSummary]
    var metadata: JSONValue?
    /// Every manifest in the chain: the active one first, then its ingredients', depth first.
    var manifests: [Manifest]

    init(file: String, report: VerificationReport) {
        self.file = file
        validation_state = report.state.rawValue
        validation_status = (report.failures + report.ingredientFailures).map(Status.init)
        let active = StatusCodes(report.statuses)
        validation_results = Results(success: active.success, informational: active.informational, failure: active.failure,
                                     ingredientDeltas: report.ingredientDeltas.map {
                                         Delta(ingredientAssertionURI: $0.ingredientAssertionURI, validationDeltas: StatusCodes($0.statuses))
                                     })
        active_manifest = report.manifestLabel
        claim_version = report.claimVersion
        claim_generator = report.claimGenerator
        signature_info = report.signer.map(SignatureInfo.init)
        trust_list = report.signer?.trustListing.map { TrustListEntry(list: $0.list, entity: $0.entity, status: $0.status) }
        when = report.captureTime
        location = report.location.map { Location(latitude: $0.latitude, longitude: $0.longitude, accuracy_m: $0.accuracy) }
        device = report.device
        actions = report.actions
        metadata = report.metadata
        manifests = report.manifests.map(Manifest.init)
    }
}
