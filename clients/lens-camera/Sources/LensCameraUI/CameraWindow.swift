import Foundation
import GtkKit
import LensClient

/// The app's one window: its header bar, and the camera page (preview and controls), the viewer
/// of this run's results or, without a session, the page that says why. Holds the UI's view of
/// the session's state and applies CameraUpdates.
final class CameraWindow {
    static let title = "Lens Camera"
    static let defaultSize = (width: 800, height: 600)

    private let window: Window
    private let session: CameraSession
    private let preferences = Preferences()
    private let titleBar = TitleBar()
    private let pages = Stack()
    private let preview = PreviewView()
    private let controls = ControlBar()
    private let results = RunResults()
    private let viewer: ResultViewer
    private let banner = Banner()
    private let unavailable = UnavailablePage()
    private let countdown = Countdown()
    private lazy var actions = WindowActions(window: window, controls: controls, handlers: self)
    private lazy var preferencesWindow = PreferencesWindow(
        parent: window, preferences: preferences, folders: [ResultArchive.picturesFolder.path, ResultArchive.videosFolder.path],
        open: { [unowned self] in open($0) }, fillChanged: { [unowned self] in preview.scaling = $0 ? .fill : .fit })

    /// Once the window is destroyed its widgets are gone: updates still on their way are dropped.
    private var closed = false
    private var connected = false
    private var mode = LensCameraMode.photo
    private var device: LensCaptureDevice?
    private var captureEnabled = false
    private var recording = false
    private var faceMode = false
    private var progressTimer: UInt32?
    private var gateReasons: [GateReason] = []
    private var locationAccuracy: Double?

    init(application: Application, bus: BusAddress) {
        window = Window(application: application, title: Self.title,
                        width: Self.defaultSize.width, height: Self.defaultSize.height)
        viewer = ResultViewer(results: results)
        var deliver: (CameraUpdate) -> Void = { _ in }
        session = CameraSession(bus: bus) { update in deliver(update) }
        deliver = { [unowned self] update in if !closed { apply(update) } }

        let previewWithBanner = Overlay(child: preview.root)
        previewWithBanner.addLayer(banner.root)
        previewWithBanner.setExpand(vertical: true)
        let camera = Box(.vertical)
        camera.append(previewWithBanner)
        camera.append(controls.root)
        pages.add(camera, name: "camera")
        pages.add(viewer.root, name: "viewer")
        pages.add(unavailable.root, name: "unavailable")
        show(page: "unavailable")
        window.setTitlebar(titleBar.root)
        window.setChild(pages)
        preview.scaling = preferences.fillsWindow ? .fill : .fit
        actions.install(application: application, countdown: preferences.countdown)
        wireControls()
        refreshSensitivity()
        window.onDestroy { [unowned self] in
            closed = true
            countdown.stop()
            if let progressTimer { MainContext.cancel(progressTimer) }
            preview.stopTimers()
        }
    }

    func present() {
        window.present()
        session.start()
    }

    private func wireControls() {
        controls.capture.onClicked { [unowned self] in capture() }
        controls.cameraSwitch.onClicked { [unowned self] in switchCamera() }
        controls.face.onToggled { [unowned self] in if controls.face.isActive != faceMode { toggleFaceMode() } }
        controls.lastResult.button.onClicked { [unowned self] in
            if let newest = results.newest { showViewer(on: newest.name) }
        }
        titleBar.photo.onToggled { [unowned self] in if titleBar.photo.isActive, mode != .photo { session.setMode(.photo) } }
        titleBar.video.onToggled { [unowned self] in if titleBar.video.isActive, mode != .video { session.setMode(.video) } }
        countdown.onTick = { [unowned self] remaining in
            preview.countdown.text = remaining.map(String.init) ?? ""
            preview.countdown.isVisible = remaining != nil
            refreshSensitivity()
        }
        results.onChange = { [unowned self] in
            controls.lastResult.show(results.newest)
            if pages.visiblePage == "viewer", !viewer.refresh(keeping: viewer.shownName) { show(page: "camera") }
        }
        viewer.onBack = { [unowned self] in show(page: "camera") }
        viewer.onOpen = { [unowned self] in open($0) }
        viewer.onDelete = { [unowned self] in delete($0) }
        preview.onFocus = { [unowned self] point in session.focus(at: point) }
        preview.onZoom = { [unowned self] factor in
            guard device?.canZoom ?? false else { return }
            session.zoom(to: factor)
        }
        // Before the focused widget sees the key, so Space never also presses a focused button.
        let keys = KeyController { [unowned self] key, modifiers in
            guard modifiers.isEmpty || modifiers == .shift else { return false }
            return shortcut(key)
        }
        keys.runsBeforeChildren()
        window.add(keys)
    }

    /// Space captures, V toggles photo/video, F changes the flash, C switches camera, T the
    /// countdown; each only when its button could be pressed. Escape leaves the viewer. (Ctrl+Q,
    /// Ctrl+, and Ctrl+? are the actions' accelerators.)
    private func shortcut(_ key: String) -> Bool {
        if key == "Escape", pages.visiblePage == "viewer" {
            show(page: "camera")
            return true
        }
        let widget: Widget
        let action: () -> Void
        switch key {
        case "space": (widget, action) = (controls.capture, capture)
        case "v": (widget, action) = (titleBar.video, toggleMode)
        case "f": (widget, action) = (controls.flash, cycleFlash)
        case "c": (widget, action) = (controls.cameraSwitch, switchCamera)
        case "t": (widget, action) = (controls.countdown, actions.cycleCountdown)
        default: return false
        }
        if pages.visiblePage == "camera", widget.isVisible, widget.isSensitive { action() }
        return true
    }

    // MARK: Actions

    /// With a countdown chosen, a photo or the start of a recording waits for it; pressing again
    /// meanwhile cancels it. Stopping a recording and face mode's "now" never wait.
    private func capture() {
        if countdown.isRunning { return countdown.cancel() }
        if faceMode { return session.takeFaceNow() }
        switch (mode, recording) {
        case (.photo, _):
            countdown.start(seconds: actions.countdownSeconds) { [unowned self] in
                guard captureEnabled else { return }
                preview.flashShutter()
                session.takePhoto()
            }
        case (.video, false):
            countdown.start(seconds: actions.countdownSeconds) { [unowned self] in
                if captureEnabled { session.startRecording() }
            }
        case (.video, true): session.stopRecording()
        }
    }

    /// Face mode starts lensd's face auto-capture (it moves to the front camera); it ends with the
    /// selfie, or when switched off.
    private func toggleFaceMode() {
        if faceMode {
            session.stopFaceCapture()
        } else {
            faceMode = true
            preview.instruction.text = "…"
            preview.instruction.isVisible = true
            preview.face = FaceOverlay(instruction: "", face: nil, isValid: false)
            session.startFaceCapture()
            refreshSensitivity()
        }
    }

    private func endFaceMode() {
        faceMode = false
        preview.face = nil
        preview.instruction.isVisible = false
    }

    private func toggleMode() { session.setMode(mode == .photo ? .video : .photo) }
    private func switchCamera() { session.switchCamera() }

    private func cycleFlash() {
        guard let device, !device.supportedFlashModes.isEmpty else { return }
        let modes = device.supportedFlashModes
        setFlash(modes[((modes.firstIndex(of: device.flashMode) ?? -1) + 1) % modes.count])
    }

    private func show(page: String) {
        pages.visiblePage = page
        titleBar.showsModes = page == "camera"
    }

    private func showViewer(on name: String) {
        guard viewer.show(name: name) else { return }
        show(page: "viewer")
    }

    /// In the desktop's application for it (the OpenURI portal in a sandbox); a failure in the banner.
    private func open(_ path: String) {
        window.open(path: path) { [weak self] reason in
            self?.banner.show(tr("No application could open %@: %@", path, reason))
        }
    }

    /// lensd's copy is deleted, the kept file goes to the trash, where the user can restore it.
    private func delete(_ result: RunResults.Result) {
        session.delete(result.name) { [unowned self] in
            if closed { return }
            if let file = result.file {
                do { try Files.trash(file) } catch { banner.show(tr("Could not move %@ to the trash: %@", file, "\(error)")) }
            }
            results.remove(name: result.name)
        }
    }

    // MARK: Updates

    private func apply(_ update: CameraUpdate) {
        switch update {
        case .unavailable(let title, let advice):
            connected = false
            countdown.cancel()
            stopRecordingClock()
            endFaceMode()
            unavailable.show(title: title, advice: advice)
            show(page: "unavailable")
        case .connected(let setup):
            connected = true
            mode = setup.mode
            titleBar.show(mode: mode)
            show(device: setup.device)
            showGate(enabled: setup.captureEnabled, reasons: setup.reasons)
            showLocation(accuracy: setup.locationAccuracy)
            show(page: "camera")
        case .previewFrame(let frame): preview.show(frame)
        case .gate(let enabled, let reasons): showGate(enabled: enabled, reasons: reasons)
        case .location(let accuracy): showLocation(accuracy: accuracy)
        case .thumbnail(let name, let image, let kind): results.add(name: name, thumbnail: image, kind: kind)
        case .stored(let name, let verdict, let file): results.mark(name: name, verdict: verdict, file: file)
        case .deleted(let name): results.remove(name: name)
        case .zoom(let factor): preview.zoomFactor = factor
        case .focused(let point): preview.showReticle(at: point)
        case .device(let newDevice): show(device: newDevice)
        case .flash(let flash):
            device?.flashMode = flash
            controls.show(flash: flash)
            actions.show(flash: flash)
        case .mode(let newMode):
            mode = newMode
            titleBar.show(mode: newMode)
        case .recordingStarted:
            recording = true
            preview.recordingTime.text = "● \(DisplayText.duration(0))"
            preview.recordingTime.isVisible = true
            progressTimer = MainContext.every(milliseconds: 500) { [unowned self] in
                session.pollRecordingProgress()
                return true
            }
        case .recordingStopped:
            recording = false
            stopRecordingClock()
        case .recordingProgress(let seconds):
            if recording { preview.recordingTime.text = "● \(DisplayText.duration(seconds))" }
        case .faceDetected(let overlay):
            guard faceMode else { break }
            preview.face = overlay
            preview.instruction.text = overlay.instruction
        case .faceCandidateSelection(let instruction): if faceMode { preview.instruction.text = instruction }
        case .faceFinished, .faceStopped: endFaceMode()
        case .error(let message): banner.show(message)
        }
        refreshSensitivity()
    }

    private func show(device newDevice: LensCaptureDevice?) {
        device = newDevice
        controls.show(device: newDevice)
        if let newDevice { actions.show(flash: newDevice.flashMode) }
        preview.zoomFactor = newDevice?.videoZoomFactor ?? 1
        preview.maximumZoom = newDevice?.maxZoomFactor ?? 1
    }

    private func showGate(enabled: Bool, reasons: [GateReason]) {
        captureEnabled = enabled
        gateReasons = reasons
        preview.reasons.show(reasons, captureEnabled: enabled)
        if !enabled { countdown.cancel() }
        showLocation(accuracy: locationAccuracy)
    }

    /// Shown while location holds capture back, and once there is a fix: how good it is.
    private func showLocation(accuracy: Double?) {
        locationAccuracy = accuracy
        let gating = !captureEnabled && gateReasons.contains { $0.isLocation }
        preview.location.text = DisplayText.location(accuracy: accuracy)
        preview.location.isVisible = gating || accuracy != nil
    }

    private func stopRecordingClock() {
        if let progressTimer { MainContext.cancel(progressTimer) }
        progressTimer = nil
        preview.recordingTime.isVisible = false
    }

    /// Capture needs the gate open (stopping a recording, or cancelling a countdown, always
    /// works); mode and camera stay while a recording, a countdown or a face capture runs; face
    /// capture takes photos, so photo mode.
    private func refreshSensitivity() {
        let counting = countdown.isRunning
        controls.show(mode: mode, recording: recording, countdown: countdown.remaining)
        controls.show(faceMode: faceMode)
        controls.capture.isSensitive = connected && (captureEnabled || recording || counting)
        titleBar.modeSwitchable = connected && captureEnabled && !recording && !faceMode && !counting
        controls.cameraSwitch.isSensitive = connected && !recording && !faceMode && !counting
        controls.face.isSensitive = connected && captureEnabled && mode == .photo && !recording && !counting
        controls.flash.isSensitive = connected
        controls.countdown.isSensitive = connected && !counting && !recording
    }
}

extension CameraWindow: WindowActionHandlers {
    func setFlash(_ mode: LensFlashMode) { session.setFlash(mode) }
    func countdownChosen(_ seconds: Int) {
        preferences.countdown = seconds
        controls.show(countdown: seconds)
    }
    func showPreferences() { preferencesWindow.present() }
    func quit() { window.close() }
}
