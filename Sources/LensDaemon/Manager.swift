import LensBus
import LensContract
import LensCore
import LensNetwork

/// org.lensd.Lens1.Manager at /org/lensd/Lens1: opens sessions, lists devices, hands out the
/// trust anchor and chain, lists and deletes the caller's results, enrolls the device. Results
/// live here rather than on a session: they belong to the caller's uid, which is all the check
/// needs — no session to open first.
final class Manager: TableObject {
    private let sessions: Sessions
    private let cameras: Cameras
    private let signing: SigningIdentity
    private let claims: CameraClaim
    private let outbox: OutboxFlow?
    private let storeCalls: StoreCalls
    private let enrollment: Enrollment
    private let authorizer: Authorizer
    private let bus: any BusPort

    init(sessions: Sessions, cameras: Cameras, signing: SigningIdentity, claims: CameraClaim, outbox: OutboxFlow?,
         storeCalls: StoreCalls, enrollment: Enrollment, authorizer: Authorizer, bus: any BusPort) {
        self.sessions = sessions
        self.cameras = cameras
        self.signing = signing
        self.claims = claims
        self.outbox = outbox
        self.storeCalls = storeCalls
        self.enrollment = enrollment
        self.authorizer = authorizer
        self.bus = bus
    }

    static let table = BusTable<Manager>(
        Lens1.managerInterface,
        methods: [
            .init("OpenSession", in: ["options": "a{sv}"], out: ["session": "o"], access: .member, Manager.openSession),
            .init("ListDevices", out: ["devices": "aa{sv}"], access: .member, Manager.listDevices),
            .init("GetTrustAnchor", out: ["pem": "s"], access: .member, Manager.trustAnchor),
            .init("CreateCertificateRequest", in: ["subject": "a{sv}"], out: ["pem": "s"], access: .root,
                  { manager in { try manager.enrollment.createCertificateRequest($0.call) } }),
            .init("InstallCertificate", in: ["chainPem": "s"], out: ["info": "a{sv}"], access: .root,
                  { manager in { try manager.enrollment.installCertificate($0.call) } }),
            .init("ListUploads", out: ["uploads": "aa{sv}"], access: .member, Manager.listUploads),
            .init("RetryUploads", in: ["name": "s"], out: ["count": "u"], access: .member, Manager.retryUploads),
            .init("GetCertificateChain", out: ["pem": "s"], access: .member, Manager.certificateChain),
            .init("ListResults", out: ["results": "aa{sv}"], access: .member, Manager.listResults),
            .init("DeleteResult", in: ["name": "s"], access: .member, Manager.deleteResult),
        ],
        properties: [
            .init("Version", "s", emitsChange: .const, access: .member) { _ in .string(ProjectVersion.string) },
            // Cameras come and go (hot-plug): changes are broadcast.
            .init("CameraPresent", "b", access: .member) { .bool($0.cameras.isAvailable) },
            .init("EnrollmentState", "s", access: .member) { .string($0.signing.state.rawValue) },
            // Changes when InstallCertificate installs a new certificate.
            .init("CertificateNotAfter", "t", access: .member) { Wire.time($0.signing.identity.certificateNotAfter) },
            .init("CertificateRenewAfter", "t", access: .member) { Wire.time($0.signing.renewAfter) },
            // Changes with every EST attempt (enrollment = est).
            .init("ESTState", "a{sv}", access: .member) { Wire.est($0.signing.est?.status) },
            // Claims come and go: changes go to every connection with a session, so waiting clients need not poll.
            .init("CameraHolder", "s", access: .member) { .string($0.claims.holderName) },
            .init("OutboxState", "a{sv}", access: .member) { OutboxFlow.wire($0.outbox?.outbox.summary ?? .empty) },
            .init("ResultLimits", "a{sv}", emitsChange: .const, access: .member) { Wire.resultLimits($0.storeCalls.store.limits) },
        ])

    /// Members and root: decided on the uid the bus reports for the sender (Authorizer).
    func admit(_ sender: String, _ access: Access, to entry: TableEntry) throws -> UInt32 {
        try authorizer.caller(sender, access: access, member: entry.name, bus: bus)
    }

    // MARK: Methods

    private func openSession(_ caller: Caller) throws -> MethodResult {
        guard let options = caller.arguments.first?.vardictValue else { throw LensError.invalidArgument("options must be a{sv}") }
        let session = try sessions.open(owner: caller.call.sender, uid: caller.uid, options: options)
        return .reply([.objectPath(session.path)])
    }

    private func listDevices(_ caller: Caller) -> MethodResult {
        .reply([.array(elementSignature: "a{sv}", cameras.descriptions.map(Wire.listedDevice))])
    }

    /// The caller's queued and failed uploads; root sees everyone's.
    private func listUploads(_ caller: Caller) throws -> MethodResult {
        let records = try configuredOutbox().records(uid: caller.uid == 0 ? nil : caller.uid)
        return .reply([.array(elementSignature: "a{sv}", records.map(OutboxFlow.wire))])
    }

    /// An attempt now for the caller's result `name`, or all of them when `name` is empty (root:
    /// anyone's). Failed ones are tried again too.
    private func retryUploads(_ caller: Caller) throws -> MethodResult {
        guard let name = caller.arguments.first?.stringValue else { throw LensError.invalidArgument("name must be a string") }
        let count = try configuredOutbox().retry(uid: caller.uid == 0 ? nil : caller.uid, name: name.isEmpty ? nil : name)
        if count == 0 && !name.isEmpty { throw LensError.notFound("no upload of yours named \(name) is waiting") }
        return .reply([.uint32(UInt32(clamping: count))])
    }

    private func configuredOutbox() throws -> Outbox {
        guard let flow = outbox else { throw LensError.unsupported("the outbox is off: no upload-url is configured") }
        return flow.outbox
    }

    private func trustAnchor(_ caller: Caller) throws -> MethodResult {
        guard let anchor = signing.identity.trustAnchor else {
            throw LensError.enrollment(signing.identity.problem ?? "the device has no identity")
        }
        return .reply([.string(anchor.pem)])
    }

    /// What x5chain carries, leaf first, for verifiers that want the device's whole chain.
    private func certificateChain(_ caller: Caller) throws -> MethodResult {
        let chain = signing.identity.certificateChain
        guard !chain.isEmpty else { throw LensError.enrollment(signing.identity.problem ?? "the device has no identity") }
        return .reply([.string(chain.map(\.pem).joined())])
    }

    /// The caller's own results, newest first; nobody else's are ever listed.
    private func listResults(_ caller: Caller) -> MethodResult {
        let uid = caller.uid
        return storeCalls.answer(caller.call) { store in
            ([.array(elementSignature: "a{sv}", store.results(uid: uid).map(Wire.listedResult))], nil)
        }
    }

    /// Deletes one of the caller's results; another user's is NotFound, like a missing one.
    private func deleteResult(_ caller: Caller) throws -> MethodResult {
        let name = try StoreCalls.resultName(caller.call), uid = caller.uid
        return storeCalls.answer(caller.call) { store in
            try store.delete(name: name, uid: uid)
            Log.info("result \(name) of \(Authorizer.userName(uid)) deleted by its owner")
            return ([], nil)
        }
    }
}
