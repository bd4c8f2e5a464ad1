import LensBus
import LensCore

/// org.lensd.Lens1.Manager at /org/lensd/Lens1: opens sessions, lists devices, hands out the
/// trust anchor. Every member requires an authorized caller (root, lensd, group lens).
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
        case "CertificateNotAfter":
            return .uint64(UInt64(max(0, service.identity.certificateNotAfter?.timeIntervalSince1970 ?? 0)))
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

    private func trustAnchor() throws -> MethodResult {
        guard let anchor = service.identity.trustAnchor else {
            throw LensError.enrollment(service.identity.problem ?? "the device has no identity")
        }
        return .reply([.string(anchor.pem)])
    }
}
