import Foundation
import GtkKit
import LensClient

/// The app's one window: the camera page (preview, strip, controls) or, without a session, the
/// page that says why. Holds the UI's view of the session's state and applies CameraUpdates.
final class CameraWindow {
    static let title = "Lens Camera"
    static let defaultSize = (width: 800, height: 600)

    private let window: Window
    private let session: CameraSession
    private let pages = Stack()
    private let preview = PreviewView()
    private let controls = ControlBar()
    private let strip = ThumbnailStrip()
    private let banner = Banner()
    private let unavailable = UnavailablePage()

    private var connected = false
    private var mode = LensCameraMode.photo
    private var device: LensDevice?
    private var captureEnabled = false
    private var recording = false
    private var faceMode = false
    private var progressTimer: UInt32?

    init(application: Application, bus: BusAddress) {
        window = Window(application: application, title: Self.title,
                        width: Self.defaultSize.width, height: Self.defaultSize.height)
        var deliver: (CameraUpdate) -> Void = { _ in }
        session = CameraSession(bus: bus) { update in deliver(update) }
        deliver = { [unowned self] update in apply(update) }

        let previewWithBanner = Overlay(child: preview.root)
        previewWithBanner.addLayer(banner.root)
        previewWithBanner.setExpand(vertical: true)
        let camera = Box(.vertical)
        camera.append(previewWithBanner)
        camera.append(strip.root)
        camera.append(controls.root)
        pages.add(camera, name: "camera")
        pages.add(unavailable.root, name: "unavailable")
        pages.visiblePage = "unavailable"
        window.setChild(pages)
        wireControls()
        refreshSensitivity()
    }

    func present() {
        window.present()
        session.start()
    }

    private func wireControls() {
        controls.capture.onClicked { [unowned self] in capture() }
        controls.mode.onClicked { [unowned self] in toggleMode() }
        controls.cameraSwitch.onClicked { [unowned self] in switchCamera() }
        controls.flash.onClicked { [unowned self] in cycleFlash() }
        controls.face.onClicked { [unowned self] in toggleFaceMode() }
        controls.scaling.onClicked { [unowned self] in
            preview.scaling = preview.scaling == .fit ? .fill : .fit
            controls.show(scaling: preview.scaling)
        }
        preview.onFocus = { [unowned self] point in session.focus(at: point) }
        preview.onZoom = { [unowned self] factor in
            guard device?.canZoom ?? false else { return }
            session.zoom(to: factor)
        }
        strip.onOpen = { [unowned self] file in
            window.open(uri: URL(fileURLWithPath: file).deletingLastPathComponent().absoluteString)
        }
        // Before the focused widget sees the key, so Space never also presses a focused button.
        let keys = KeyController { [unowned self] key, modifiers in
            if modifiers == .control, key == "q" {
                window.close()
                return true
            }
            guard modifiers.isEmpty || modifiers == .shift else { return false }
            return shortcut(key)
        }
        keys.runsBeforeChildren()
        window.add(keys)
    }

    /// Space captures, V toggles photo/video, F changes the flash, C switches camera; each only
    /// when its button could be pressed. (Ctrl+Q quits.)
    private func shortcut(_ key: String) -> Bool {
        let button: Button
        let action: () -> Void
        switch key {
        case "space": (button, action) = (controls.capture, capture)
        case "v": (button, action) = (controls.mode, toggleMode)
        case "f": (button, action) = (controls.flash, cycleFlash)
        case "c": (button, action) = (controls.cameraSwitch, switchCamera)
        default: return false
        }
        if pages.visiblePage == "camera", button.isVisible, button.isSensitive { action() }
        return true
    }

    // MARK: Actions

    private func capture() {
        if faceMode { return session.takeFaceNow() }
        switch (mode, recording) {
        case (.photo, _):
            preview.flashShutter()
            session.takePhoto()
        case (.video, false): session.startRecording()
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
        let next = modes[((modes.firstIndex(of: device.flashMode) ?? -1) + 1) % modes.count]
        session.setFlash(next)
    }

    // MARK: Updates

    private func apply(_ update: CameraUpdate) {
        switch update {
        case .unavailable(let title, let advice):
            connected = false
            stopRecordingClock()
            endFaceMode()
            unavailable.show(title: title, advice: advice)
            pages.visiblePage = "unavailable"
        case .connected(let setup):
            connected = true
            mode = setup.mode
            show(device: setup.device)
            showGate(enabled: setup.captureEnabled, reasons: setup.reasons)
            pages.visiblePage = "camera"
        case .previewFrame(let frame): preview.show(frame)
        case .gate(let enabled, let reasons): showGate(enabled: enabled, reasons: reasons)
        case .thumbnail(let name, let image, let kind): strip.add(name: name, image: image, kind: kind)
        case .stored(let name, let verdict, let file): strip.mark(name: name, verdict: verdict, file: file)
        case .zoom(let factor): preview.zoomFactor = factor
        case .focused(let point): preview.showReticle(at: point)
        case .device(let newDevice): show(device: newDevice)
        case .flash(let flash):
            device?.flashMode = flash
            controls.show(flash: flash)
        case .mode(let newMode): mode = newMode
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

    private func show(device newDevice: LensDevice?) {
        device = newDevice
        controls.show(device: newDevice)
        preview.zoomFactor = newDevice?.videoZoomFactor ?? 1
        preview.maximumZoom = newDevice?.maxZoomFactor ?? 1
    }

    private func showGate(enabled: Bool, reasons: String) {
        captureEnabled = enabled
        preview.reasons.text = reasons
        preview.reasons.isVisible = !enabled && !reasons.isEmpty
    }

    private func stopRecordingClock() {
        if let progressTimer { MainContext.cancel(progressTimer) }
        progressTimer = nil
        preview.recordingTime.isVisible = false
    }

    /// Capture needs the gate open (stopping a recording always works); mode and camera stay
    /// while a recording or a face capture runs; face capture takes photos, so photo mode.
    private func refreshSensitivity() {
        controls.show(mode: mode, recording: recording)
        controls.show(faceMode: faceMode)
        controls.capture.isSensitive = connected && (captureEnabled || recording)
        controls.mode.isSensitive = connected && captureEnabled && !recording && !faceMode
        controls.cameraSwitch.isSensitive = connected && !recording && !faceMode
        controls.face.isSensitive = connected && captureEnabled && mode == .photo && !recording
        controls.flash.isSensitive = connected
    }
}
