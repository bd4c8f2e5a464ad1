import LensBus
import LensCore

/// org.lensd.Lens1.Manager at /org/lensd/Lens1: opens sessions, lists devices, hands out the
/// trust anchor and chain, lists and deletes the caller's results. Every member requires an
/// authorized caller (root, lensd, group lens). Results live here rather than on a session:
/// they belong to the caller's uid, which is all the check needs — no session to open first.
final class Manager: BusInterface {
    private unowned let service: LensService
    let interface = BusContract.manager

    init(service: LensService) { self.service = service }

    func call(_ call: MethodCall) -> MethodResult {
        do {
            let uid = try authorize(call.sender)
            switch call.member {
            case "OpenSession": return try openSession(call, uid: uid)
            case "ListDevices": return .reply([.array(elementSignature: "a{sv}", service.rig.descriptions.map(Wire.listedDevice))])
            case "GetTrustAnchor": return try trustAnchor()
            case "ListUploads": return try listUploads(uid: uid)
            case "RetryUploads": return try retryUploads(call, uid: uid)
            case "GetCertificateChain": return try certificateChain()
            case "ListResults": return listResults(call, uid: uid)
            case "DeleteResult": return try deleteResult(call, uid: uid)
            case "CreateCertificateRequest": return try Enrollment(service: service).createCertificateRequest(call, uid: uid)
            case "InstallCertificate": return try Enrollment(service: service).installCertificate(call, uid: uid)
            default: return .error(BusError("org.freedesktop.DBus.Error.UnknownMethod", "no method \(call.member)"))
            }
        } catch {
            return .error(LensError.from(error).busError)
        }
    }

    func get(property: String, sender: String) throws -> BusValue {
        do { _ = try authorize(sender) } catch { throw LensError.from(error).busError }
        switch property {
        case "Version": return .string(ProjectVersion.string)
        case "CameraPresent": return .bool(service.conditions.cameraAvailable)
        case "EnrollmentState": return .string(service.enrollmentState.rawValue)
        case "CameraHolder": return .string(service.cameraHolderName)
        case "ResultLimits": return Wire.resultLimits(service.store.limits)
        case "CertificateNotAfter": return Wire.time(service.identity.certificateNotAfter)
        case "CertificateRenewAfter": return Wire.time(service.certificateRenewAfter)
        case "OutboxState": return OutboxFlow.wire(service.outbox?.outbox.summary ?? .empty)
        default: throw BusError("org.freedesktop.DBus.Error.UnknownProperty", "no property \(property)")
        }
    }

    func set(property: String, value: BusValue, sender: String) throws {
        throw BusError("org.freedesktop.DBus.Error.PropertyReadOnly", "\(property) is read-only")
    }

    /// On the uid the bus reports for the sender — the policy file may be missing, this is not.
    private func authorize(_ sender: String) throws -> UInt32 {
        let uid: UInt32
        do { uid = try service.bus.peerUID(sender) } catch {
            throw LensError.notAuthorized("the bus did not report who you are")
        }
        guard service.authorizer.isAllowed(uid: uid) else {
            throw LensError.notAuthorized("\(Authorizer.userName(uid)) may not use lensd: add the user to group \(service.configuration.allowedGroup)")
        }
        return uid
    }

    private func openSession(_ call: MethodCall, uid: UInt32) throws -> MethodResult {
        guard let options = call.arguments.first?.vardictValue else { throw LensError.invalidArgument("options must be a{sv}") }
        let session = try service.openSession(owner: call.sender, uid: uid, options: options)
        return .reply([.objectPath(session.path)])
    }

    /// The caller's queued and failed uploads; root sees everyone's.
    private func listUploads(uid: UInt32) throws -> MethodResult {
        let outbox = try configuredOutbox()
        let records = outbox.records(uid: uid == 0 ? nil : uid)
        return .reply([.array(elementSignature: "a{sv}", records.map(OutboxFlow.wire))])
    }

    /// An attempt now for the caller's result `name`, or all of them when `name` is empty (root:
    /// anyone's). Failed ones are tried again too.
    private func retryUploads(_ call: MethodCall, uid: UInt32) throws -> MethodResult {
        guard let name = call.arguments.first?.stringValue else { throw LensError.invalidArgument("name must be a string") }
        let outbox = try configuredOutbox()
        let count = outbox.retry(uid: uid == 0 ? nil : uid, name: name.isEmpty ? nil : name)
        if count == 0 && !name.isEmpty { throw LensError.notFound("no upload of yours named \(name) is waiting") }
        return .reply([.uint32(UInt32(clamping: count))])
    }

    private func configuredOutbox() throws -> Outbox {
        guard let flow = service.outbox else { throw LensError.unsupported("the outbox is off: no upload-url is configured") }
        return flow.outbox
    }

    private func trustAnchor() throws -> MethodResult {
        guard let anchor = service.identity.trustAnchor else {
            throw LensError.enrollment(service.identity.problem ?? "the device has no identity")
        }
        return .reply([.string(anchor.pem)])
    }

    /// What x5chain carries, leaf first, for verifiers that want the device's whole chain.
    private func certificateChain() throws -> MethodResult {
        let chain = service.identity.certificateChain
        guard !chain.isEmpty else { throw LensError.enrollment(service.identity.problem ?? "the device has no identity") }
        return .reply([.string(chain.map(\.pem).joined())])
    }

    /// The caller's own results, newest first; nobody else's are ever listed.
    private func listResults(_ call: MethodCall, uid: UInt32) -> MethodResult {
        service.fromStore(call) { store in
            ([.array(elementSignature: "a{sv}", store.results(uid: uid).map(Wire.listedResult))], nil)
        }
    }

    /// Deletes one of the caller's results; another user's is NotFound, like a missing one.
    private func deleteResult(_ call: MethodCall, uid: UInt32) throws -> MethodResult {
        let name = try LensService.resultName(call)
        return service.fromStore(call) { store in
            try store.delete(name: name, uid: uid)
            Log.info("result \(name) of \(Authorizer.userName(uid)) deleted by its owner")
            return ([], nil)
        }
    }
}
