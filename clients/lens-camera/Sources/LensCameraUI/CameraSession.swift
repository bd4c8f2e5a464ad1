import Foundation
import GtkKit
import LensClient
import Synchronization

/// The app's connection to lensd: one LensCamera at a time, reconnecting whenever lensd is
/// unreachable or goes away. Every LensClient call blocks until lensd answers, so they all run
/// on one serial queue, never on the main context; what they learn comes back as CameraUpdates
/// posted to the main context.
final class CameraSession: @unchecked Sendable {  // the mutable state below is confined to `commands`
    static let previewSize = (width: 1280, height: 720)
    static let previewRate = 15.0
    static let retryInterval = 1.0

    private let bus: BusAddress
    private let commands = DispatchQueue(label: "lens-camera.commands")
    private let update: @Sendable (CameraUpdate) -> Void
    private let pendingZoom = Mutex<Double?>(nil)

    private var camera: LensCamera?
    private var forwarder: EventForwarder?
    private var preview: LensPreview?
    /// Counts connections, so a late signal of an old one changes nothing.
    private var generation = 0

    /// `update` runs on the main context.
    init(bus: BusAddress, update: @escaping @Sendable (CameraUpdate) -> Void) {
        self.bus = bus
        self.update = update
    }

    func start() { commands.async { self.connect() } }

    private func post(_ event: CameraUpdate) {
        let update = update
        MainContext.post { update(event) }
    }

    // MARK: Connection

    private func connect() {
        generation += 1
        let generation = generation
        let forwarder = EventForwarder(
            update: update,
            gateChanged: { [weak self] in self?.onCommands(generation) { $0.refreshGate() } },
            disconnected: { [weak self] error in self?.onCommands(generation) { $0.lost(error) } })
        var opened: LensCamera?
        do {
            let camera = try LensCamera(bus: bus, delegate: forwarder, delegateQueue: forwarder.queue)
            opened = camera
            camera.videoDirectory = nil  // the archive keeps videos itself (keepVideo)
            forwarder.camera = camera
            forwarder.archive = ResultArchive(trustAnchorPEM: try camera.trustAnchor())
            try camera.startCaptureSession()
            let status = try camera.captureStatus()
            self.camera = camera
            self.forwarder = forwarder
            post(.connected(CameraSetup(mode: status.cameraMode, device: status.currentDevice, captureEnabled: status.captureEnabled,
                                        reasons: Self.reasons(status), locationAccuracy: status.location?.accuracy)))
            openPreview()
        } catch {
            opened?.close()
            let screen = Unavailability.describe(error)
            post(.unavailable(title: screen.title, advice: screen.advice))
            retryLater()
        }
    }

    /// Runs `body` on the command queue if connection `generation` is still the current one.
    private func onCommands(_ generation: Int, _ body: @escaping (CameraSession) -> Void) {
        commands.async { if self.generation == generation, self.camera != nil { body(self) } }
    }

    private func lost(_ error: LensClientError) {
        camera?.close()
        camera = nil
        forwarder = nil
        preview = nil
        pendingZoom.withLock { $0 = nil }
        let screen = Unavailability.describe(error)
        post(.unavailable(title: screen.title, advice: screen.advice))
        retryLater()
    }

    private func retryLater() {
        commands.asyncAfter(deadline: .now() + Self.retryInterval) { self.connect() }
    }

    /// Streams the preview until it ends, then opens a new one while the session lasts (a
    /// camera switch or mode change may end a preview).
    private func openPreview() {
        guard let camera else { return }
        do {
            let preview = try camera.openPreview(size: Self.previewSize, fps: Self.previewRate)
            self.preview = preview
            let update = update
            let feed = PreviewFeed { texture in update(.previewFrame(texture)) }
            let generation = generation
            Task.detached { [weak self] in
                await feed.run(preview)
                self?.commands.asyncAfter(deadline: .now() + 0.2) {
                    guard let self, self.generation == generation, self.camera != nil, self.preview === preview else { return }
                    self.openPreview()
                }
            }
        } catch {
            post(.error(tr("No preview: %@", error.message)))
        }
    }

    private func refreshGate() {
        guard let camera else { return }
        do {
            let status = try camera.captureStatus()
            post(.gate(enabled: status.captureEnabled, reasons: Self.reasons(status)))
            post(.location(accuracy: status.location?.accuracy))
        } catch {
            post(.error(error.message))
        }
    }

    private static func reasons(_ status: LensSessionStatus) -> [GateReason] {
        DisplayText.disabledReasons(status.disabledReasons, details: status.disabledReasonDetails,
                                    fixAccuracy: status.location?.accuracy, maximumAccuracy: status.maximumLocationAccuracy)
    }

    // MARK: Commands (from the main context)

    /// Runs a LensClient call on the command queue; its error becomes the banner's text, after
    /// `what` (translated).
    private func perform(_ what: String, _ body: @escaping (LensCamera) throws -> Void) {
        commands.async {
            guard let camera = self.camera else { return }
            do {
                try body(camera)
            } catch {
                self.post(.error(tr("%@: %@", what, (error as? LensClientError)?.message ?? "\(error)")))
            }
        }
    }

    func takePhoto() { perform(tr("Capture")) { _ = try $0.beginCapture() } }

    func startRecording() { perform(tr("Recording")) { try $0.startVideoCapture() } }
    func stopRecording() { perform(tr("Stopping the recording")) { try $0.stopVideoCapture() } }

    func setMode(_ mode: LensCameraMode) {
        perform(mode == .photo ? tr("Switching to photo") : tr("Switching to video")) { [self] camera in
            try camera.setCameraMode(mode)
            post(.mode(mode))
        }
    }

    func switchCamera() {
        perform(tr("Switching camera")) { [self] camera in post(.device(try camera.changeCamera())) }
    }

    func setFlash(_ mode: LensFlashMode) { perform(tr("Flash")) { try $0.setFlashMode(mode) } }

    func focus(at point: LensPoint) { perform(tr("Focus")) { _ = try $0.focus(at: point) } }

    /// Absolute factors; while a gesture streams them faster than lensd answers, only the newest
    /// is sent.
    func zoom(to factor: Double) {
        let idle = pendingZoom.withLock { pending in
            defer { pending = factor }
            return pending == nil
        }
        guard idle else { return }
        perform(tr("Zoom")) { [self] camera in
            guard let factor = pendingZoom.withLock({ pending in defer { pending = nil }; return pending }) else { return }
            _ = try camera.setZoomFactor(factor)
        }
    }

    func startFaceCapture() {
        perform(tr("Face capture")) { [self] camera in
            do {
                try camera.startFaceAutoCapture(configuration: FaceMode.configuration)
            } catch {
                post(.faceStopped)
                throw error
            }
        }
    }

    func stopFaceCapture() {
        perform(tr("Stopping face capture")) { [self] camera in
            try camera.stopFaceAutoCapture()
            post(.faceStopped)
        }
    }

    /// Deletes lensd's copy of a result of this user's, then runs `deleted` on the main context
    /// (also when lensd had already let it go).
    func delete(_ name: String, then deleted: @escaping @Sendable () -> Void) {
        perform(tr("Deleting")) { camera in
            do { try camera.deleteResult(name) } catch LensClientError.notFound {}
            MainContext.post(deleted)
        }
    }

    /// Takes the next processed frame as the selfie, whatever its quality.
    func takeFaceNow() { perform(tr("Face capture")) { try $0.requestFaceCapture() } }

    /// The running recording's length, for the duration label (lensd sends no signal for it).
    func pollRecordingProgress() {
        commands.async {
            guard let progress = try? self.camera?.videoRecordingProgress else { return }
            self.post(.recordingProgress(seconds: progress.duration))
        }
    }
}
