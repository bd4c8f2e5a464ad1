import GtkKit
import LensClient

/// The bar under the preview, as GNOME Snapshot lays it out: the last result at the start, the
/// capture button in the centre, then the countdown and flash menus, face capture and the camera
/// switch — icon buttons whose tooltips say what a click does. Shows state; the window decides
/// what the buttons do.
final class ControlBar {
    let root = CenterBox()
    let lastResult = LastResultButton()
    let capture = Button(label: "")
    let countdown: MenuButton
    let flash: MenuButton
    let face = ToggleButton(iconName: "avatar-default-symbolic")
    let cameraSwitch = Button(iconName: "camera-switch-symbolic")

    /// The menus name the window's actions `win.countdown` and `win.flash`.
    init() {
        let countdownMenu = Menu()
        for seconds in Countdown.choices { countdownMenu.append(DisplayText.countdown(seconds), action: "win.countdown::\(seconds)") }
        countdown = MenuButton(iconName: "alarm-symbolic", menu: countdownMenu)
        let flashMenu = Menu()
        for mode in LensFlashMode.allCases { flashMenu.append(DisplayText.flash(mode), action: "win.flash::\(mode.rawValue)") }
        flash = MenuButton(iconName: "org.lensd.LensCamera-flash-symbolic", menu: flashMenu)

        root.addCSSClass("control-bar")
        capture.addCSSClass("capture")
        capture.setAlign(horizontal: .center, vertical: .center)
        let end = Box(.horizontal, spacing: 6)
        for widget in [countdown, flash, face, cameraSwitch] as [Widget] {
            widget.setAlign(vertical: .center)
            widget.addCSSClass("circular")
            end.append(widget)
        }
        root.setStart(lastResult.root)
        root.setCenter(capture)
        root.setEnd(end)
        show(mode: .photo, recording: false, countdown: nil)
        show(faceMode: false)
        show(countdown: 0)
    }

    /// Face mode on: the capture button takes the selfie now, whatever the frame's quality.
    func show(faceMode: Bool) {
        face.isActive = faceMode
        let words = faceMode ? tr("Stop face capture") : tr("Face capture: a selfie when the face is right")
        face.setAccessibleName(words)
        face.setTooltip(words)
        if faceMode {
            capture.setAccessibleName(tr("Take the selfie now"))
            capture.setTooltip(tr("%@ (Space)", tr("Take the selfie now")))
        }
    }

    /// `countdown`: the seconds left of a running countdown, which a click cancels.
    func show(mode cameraMode: LensCameraMode, recording: Bool, countdown remaining: Int?) {
        capture.setCSSClass("video", cameraMode == .video)
        capture.setCSSClass("recording", recording)
        let name = switch (cameraMode, recording, remaining) {
        case (_, _, .some): tr("Cancel the countdown")
        case (.photo, _, nil): tr("Take photo")
        case (.video, false, nil): tr("Start recording")
        case (.video, true, nil): tr("Stop recording")
        }
        capture.label = recording ? "■" : remaining.map(String.init) ?? ""
        capture.setAccessibleName(name)
        capture.setTooltip(tr("%@ (Space)", name))
    }

    func show(device: LensCaptureDevice?) {
        let next = switch device?.position {
        case .back: tr("Switch to the front camera (C)")
        case .front: tr("Switch to the back camera (C)")
        default: tr("Switch cameras (C)")
        }
        let now = device.map { DisplayText.position($0.position) } ?? tr("No camera")
        cameraSwitch.setTooltip(next)
        cameraSwitch.setAccessibleName(tr("%@; now: %@", next, now))
        flash.isVisible = device?.hasFlash ?? false
        if let device { show(flash: device.flashMode) }
    }

    func show(flash mode: LensFlashMode) {
        let words = tr("%@ (F to change)", DisplayText.flash(mode))
        flash.setTooltip(words)
        flash.setAccessibleName(words)
        flash.setCSSClass("flash-off", mode == .off)
    }

    func show(countdown seconds: Int) {
        let words = tr("%@ (T to change)", DisplayText.countdown(seconds))
        countdown.setTooltip(words)
        countdown.setAccessibleName(words)
        countdown.setCSSClass("countdown-off", seconds == 0)
    }
}
