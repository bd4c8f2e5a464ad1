import LensClient

/// `--camera` / `set camera`: "next", a position (back, front, external) or a device path.
enum CameraSelection {
    /// "next" is ChangeCamera (the back/front toggle); the rest picks from ListDevices and
    /// switches to it with SelectCamera. Returns the camera now in use. Needs the claim. When
    /// lensd has no such camera nothing is switched, and the error says which camera is current.
    static func select(_ wanted: String, on camera: LensCamera) throws(LensClientError) -> LensCaptureDevice {
        if wanted == "next" { return try camera.changeCamera() }
        let current = try camera.currentDevice
        if let current, current.position.rawValue == wanted || current.path == wanted { return current }
        guard let device = try camera.devices().first(where: { $0.position.rawValue == wanted || $0.path == wanted }) else {
            let still = current.map { "; the camera is still \($0.position.rawValue) (\($0.path))" } ?? ""
            throw .notFound("lensd has no camera \(wanted) (see lensctl devices)\(still)")
        }
        return try camera.changeCamera(to: device.path)
    }
}
