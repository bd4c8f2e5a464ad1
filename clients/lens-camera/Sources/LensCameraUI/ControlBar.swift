import GtkKit
import LensClient

/// The bar under the preview: mode and fit/fill on the left, the capture button centred, flash
/// and camera switch on the right. Shows state; the window decides what the buttons do.
final class ControlBar {
    let root = CenterBox()
    let capture = Button(label: "")
    let mode = Button(label: tr("Photo"))
    let scaling = Button(label: tr("Fit"))
    let face = Button(label: tr("Face"))
    let flash = Button(label: tr("Flash off"))
    let cameraSwitch = Button(label: tr("Back camera"))

    init() {
        root.addCSSClass("control-bar")
        capture.addCSSClass("capture")
        capture.setAlign(horizontal: .center, vertical: .center)
        for button in [mode, scaling, face, flash, cameraSwitch] { button.setAlign(vertical: .center) }
        let left = Box(.horizontal)
        left.append(mode)
        left.append(scaling)
        left.append(face)
        let right = Box(.horizontal)
        right.append(flash)
        right.append(cameraSwitch)
        root.setStart(left)
        root.setCenter(capture)
        root.setEnd(right)
        scaling.setAccessibleName(tr("Preview scaling"))
        scaling.setTooltip(tr("Fit shows the whole frame; fill covers the window"))
        show(mode: .photo, recording: false)
        show(faceMode: false)
    }

    /// Face mode on: the capture button takes the selfie now, whatever the frame's quality.
    func show(faceMode: Bool) {
        face.setCSSClass("face-on", faceMode)
        face.setAccessibleName(faceMode ? tr("Stop face capture") : tr("Face capture: a selfie when the face is right"))
        if faceMode {
            capture.setAccessibleName(tr("Take the selfie now"))
            capture.setTooltip(tr("%@ (Space)", tr("Take the selfie now")))
        }
    }

    func show(mode cameraMode: LensCameraMode, recording: Bool) {
        mode.label = cameraMode == .photo ? tr("Photo") : tr("Video")
        mode.setAccessibleName(cameraMode == .photo ? tr("Mode: photo (V for video)") : tr("Mode: video (V for photo)"))
        capture.setCSSClass("video", cameraMode == .video)
        capture.setCSSClass("recording", recording)
        let name = switch (cameraMode, recording) {
        case (.photo, _): tr("Take photo")
        case (.video, false): tr("Start recording")
        case (.video, true): tr("Stop recording")
        }
        capture.label = recording ? "■" : ""
        capture.setAccessibleName(name)
        capture.setTooltip(tr("%@ (Space)", name))
    }

    func show(device: LensDevice?) {
        cameraSwitch.label = device.map { DisplayText.position($0.position) } ?? tr("No camera")
        cameraSwitch.setAccessibleName(tr("Switch camera (C); now: %@", cameraSwitch.label))
        flash.isVisible = device?.hasFlash ?? false
        if let device { show(flash: device.flashMode) }
    }

    func show(flash mode: LensFlashMode) {
        flash.label = DisplayText.flash(mode)
        flash.setAccessibleName(tr("%@ (F to change)", DisplayText.flash(mode)))
    }

    func show(scaling value: PreviewGeometry.Scaling) {
        scaling.label = value == .fit ? tr("Fit") : tr("Fill")
    }
}
