import LensBus
import LensContract

/// What lensd knows: its own state, this session's, the cameras, the trust anchor.
extension LensCamera {
    /// The daemon's state: version, camera, enrollment, certificate expiry.
    public func status() throws(LensClientError) -> LensStatus {
        try LensStatus(try allProperties(path: Lens1.managerPath, interface: Lens1.managerInterface))
    }

    /// This session's state: whether capture is enabled and why not, location, current camera.
    public func captureStatus() throws(LensClientError) -> LensSessionStatus {
        try LensSessionStatus(try allProperties(path: sessionPath, interface: Lens1.sessionInterface))
    }

    /// The camera in use; nil when lensd has none.
    public var currentDevice: LensCaptureDevice? {
        get throws(LensClientError) {
            let fields = try Fields(try sessionProperty("CurrentDevice"), "CurrentDevice")
            return fields.isEmpty ? nil : try LensCaptureDevice(fields)
        }
    }

    /// Every camera lensd can use, in ChangeCamera's order.
    public func devices() throws(LensClientError) -> [LensDeviceDescription] {
        let reply = try managerCall("ListDevices")
        guard reply.count == 1, let devices = reply[0].arrayValue else { throw .internal("ListDevices answered \(reply)") }
        var described: [LensDeviceDescription] = []
        for device in devices { described.append(try LensDeviceDescription(try Fields(device, "a listed device"))) }
        return described
    }

    /// The PEM certificates this device's manifests carry: its own certificate first, then the
    /// intermediates (the root is `trustAnchor()`).
    public func certificateChain() throws(LensClientError) -> String {
        try Reply.single(try managerCall("GetCertificateChain"), "GetCertificateChain") { $0.stringValue }
    }

    /// The PEM of the root certificate that verifiers should trust for this device's photos.
    public func trustAnchor() throws(LensClientError) -> String {
        try Reply.single(try managerCall("GetTrustAnchor"), "GetTrustAnchor") { $0.stringValue }
    }
}
