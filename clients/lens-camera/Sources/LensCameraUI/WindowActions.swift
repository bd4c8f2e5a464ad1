import GtkKit
import LensBus
import LensClient

/// What the window's actions do, decided by the window.
protocol WindowActionHandlers: AnyObject {
    func setFlash(_ mode: LensFlashMode)
    func countdownChosen(_ seconds: Int)
    func showPreferences()
    func quit()
}

/// The window's actions — `win.flash`, `win.countdown` (the control bar's menus), `win.preferences`,
/// `win.about`, `win.quit` and GTK's `win.show-help-overlay` (the main menu) — and their keys.
final class WindowActions {
    private let window: Window
    private let controls: ControlBar
    private unowned let handlers: WindowActionHandlers
    private var actions: [Action] = []
    private var flash: Action?
    private var countdown: Action?

    init(window: Window, controls: ControlBar, handlers: WindowActionHandlers) {
        self.window = window
        self.controls = controls
        self.handlers = handlers
    }

    func install(application: Application, countdown seconds: Int) {
        let flash = Action("flash", state: LensFlashMode.off.rawValue) { [unowned self] mode in
            if let mode = LensFlashMode(rawValue: mode) { handlers.setFlash(mode) }
        }
        let countdown = Action("countdown", state: String(seconds)) { [unowned self] value in choose(countdown: Int(value) ?? 0) }
        self.flash = flash
        self.countdown = countdown
        actions = [flash, countdown,
                   Action("preferences") { [unowned self] in handlers.showPreferences() },
                   Action("about") { [unowned self] in showAbout() },
                   Action("quit") { [unowned self] in handlers.quit() }]
        for action in actions { window.add(action) }
        application.setAccelerators(["<Control>q"], for: "win.quit")
        application.setAccelerators(["<Control>comma"], for: "win.preferences")
        application.setAccelerators(["<Control>question"], for: "win.show-help-overlay")
        window.setHelpOverlay(ShortcutsWindow(title: tr("Keyboard Shortcuts"), groups: Self.shortcuts))
        controls.show(countdown: seconds)
    }

    var countdownSeconds: Int { Int(countdown?.state ?? "") ?? 0 }

    /// T: none → 3 s → 10 s → none.
    func cycleCountdown() {
        let choices = Countdown.choices
        choose(countdown: choices[((choices.firstIndex(of: countdownSeconds) ?? 0) + 1) % choices.count])
    }

    /// The flash lensd confirmed, checked in the flash menu.
    func show(flash mode: LensFlashMode) { flash?.state = mode.rawValue }

    private func choose(countdown seconds: Int) {
        countdown?.state = String(seconds)
        handlers.countdownChosen(seconds)
    }

    private func showAbout() {
        AboutDialog.show(over: window, name: CameraWindow.title, version: ProjectVersion.string,
                         comments: tr("Photos and videos whose origin anyone can verify: lensd signs each one with a C2PA manifest"),
                         iconName: "org.lensd.LensCamera", developers: [tr("The lensd developers")])
    }

    static var shortcuts: [(title: String, shortcuts: [(accelerator: String, title: String)])] {
        [(tr("Camera"), [("space", tr("Take a photo, or start and stop a recording")), ("v", tr("Switch between photo and video")),
                         ("f", tr("Change the flash")), ("c", tr("Switch cameras")), ("t", tr("Change the countdown"))]),
         (tr("Results"), [("Escape", tr("Back to the camera from the viewer"))]),
         (tr("General"), [("<Control>comma", tr("Preferences")), ("<Control>question", tr("Keyboard Shortcuts")),
                          ("<Control>q", tr("Quit"))])]
    }
}
