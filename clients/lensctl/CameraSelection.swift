import LensClient

/// `--camera` / `set camera`: "next", a position (back, front, external) or a device path.
enum CameraSelection {
    /// Switches until the current camera is the wanted one; returns it. Needs the claim. When
    /// lensd has no such camera, the camera that was current is current again, and the error
    /// says so: a failed selection changes nothing for anyone.
    static func select(_ wanted: String, on camera: LensCamera) throws(LensClientError) -> LensDevice {
        if wanted == "next" { return try camera.changeCamera() }
        guard let current = try camera.currentDevice else { throw .notFound("lensd has no camera; see lensctl devices") }
        if matches(current, wanted) { return current }
        // ChangeCamera cycles through the list: each camera comes up once in count - 1 switches,
        // and one switch more comes back to where it started.
        let count = try camera.devices().count
        for _ in 0..<max(0, count - 1) {
            let device = try camera.changeCamera()
            if matches(device, wanted) { return device }
        }
        if count > 1 { _ = try camera.changeCamera() }
        throw .notFound("lensd has no camera \(wanted) (see lensctl devices); "
                        + "the camera is still \(current.position.rawValue) (\(current.path))")
    }

    private static func matches(_ device: LensDevice, _ wanted: String) -> Bool {
        device.position.rawValue == wanted || device.path == wanted
    }
}
