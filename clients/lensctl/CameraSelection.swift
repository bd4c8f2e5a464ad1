import LensClient

/// `--camera` / `set camera`: "next", a position (back, front, external) or a device path.
enum CameraSelection {
    /// "next" is ChangeCamera (the back/front toggle); the rest picks from ListDevices and
    /// switches to it with SelectCamera. Returns the camera now in use. Needs the claim.
    static func select(_ wanted: String, on camera: LensCamera) throws(LensClientError) -> LensDevice {
        if wanted == "next" { return try camera.changeCamera() }
        if let current = try camera.currentDevice, current.position.rawValue == wanted || current.path == wanted {
            return current
        }
        guard let device = try camera.devices().first(where: { $0.position.rawValue == wanted || $0.path == wanted }) else {
            throw .notFound("lensd has no camera \(wanted); see lensctl devices")
        }
        return try camera.changeCamera(to: device.path)
    }
}
