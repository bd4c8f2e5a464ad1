import LensClient

/// `--camera` / `set camera`: "next", a position (back, front, external) or a device path.
enum CameraSelection {
    /// Switches until the current camera is the wanted one; returns it. Needs the claim.
    static func select(_ wanted: String, on camera: LensCamera) throws(LensClientError) -> LensDevice {
        if wanted == "next" { return try camera.changeCamera() }
        if let current = try camera.currentDevice, matches(current, wanted) { return current }
        // ChangeCamera cycles through the list: each camera comes up once in count - 1 switches.
        for _ in 0..<max(0, try camera.devices().count - 1) {
            let device = try camera.changeCamera()
            if matches(device, wanted) { return device }
        }
        throw .notFound("lensd has no camera \(wanted); see lensctl devices")
    }

    private static func matches(_ device: LensDevice, _ wanted: String) -> Bool {
        device.position.rawValue == wanted || device.path == wanted
    }
}
