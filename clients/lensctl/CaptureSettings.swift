import LensClient

/// The per-capture flags of `capture` and `record` (`--camera`, `--flash`, `--zoom`; `face-capture`'s
/// camera): set after
/// the claim, for this capture only, and put back before the claim is released, so that the
/// next client finds the camera as it was. Lasting changes are `lensctl set`'s.
struct CaptureSettings {
    private let camera: LensCamera
    /// The camera current before, when `--camera` switched away from it.
    private let previousCamera: LensCaptureDevice?
    /// The chosen camera's own flash mode and zoom before they were changed.
    private let previousFlash: LensFlashMode?
    private let previousZoom: Double?

    /// Applies what was asked; a failed camera selection has already restored the previous one.
    /// `keepingCamera`: the camera current now is put back even when something else (lensd's face
    /// auto-capture, which moves to its camera_facing) switches away from it.
    init(camera: LensCamera, select wanted: String?, flash: LensFlashMode?, zoom: Double?,
         keepingCamera: Bool = false) throws(LensClientError) {
        self.camera = camera
        let before = try camera.currentDevice
        let chosen = try wanted.map { (wanted) throws(LensClientError) in try CameraSelection.select(wanted, on: camera) } ?? before
        previousCamera = keepingCamera || chosen?.path != before?.path ? before : nil
        previousFlash = flash != nil && flash != chosen?.flashMode ? chosen?.flashMode : nil
        previousZoom = zoom != nil ? chosen?.videoZoomFactor : nil
        if let flash { try camera.setFlashMode(flash) }
        if let zoom { _ = try camera.setZoomFactor(zoom) }
    }

    /// Runs the capture, then puts the settings back, whether it succeeded or not.
    func restoring<T>(_ capture: () throws -> T) rethrows -> T {
        defer { restore() }
        return try capture()
    }

    /// Puts back what `init` changed: the chosen camera's flash and zoom, then the camera. Says on
    /// stderr what could not be put back — unless lensd is gone, and the settings with it.
    private func restore() {
        do {
            if let previousFlash { try camera.setFlashMode(previousFlash) }
            if let previousZoom { _ = try camera.setZoomFactor(previousZoom) }
            if let previousCamera { _ = try CameraSelection.select(previousCamera.path, on: camera) }
        } catch .disconnected, .unreachable {
        } catch {
            Output.error("could not put the camera settings back as they were: \(error.message)")
        }
    }
}
