import GtkKit
import LensClient

/// The window's header bar, as GNOME Snapshot's: the switcher between photo and video in its
/// centre, the main menu at its end (Preferences, Keyboard Shortcuts, About Lens Camera).
final class TitleBar {
    let root = HeaderBar()
    let photo = ToggleButton(iconName: "camera-photo-symbolic", label: tr("Photo"))
    let video = ToggleButton(iconName: "camera-video-symbolic", label: tr("Video"))
    let mainMenu: MenuButton
    private let switcher = Box(.horizontal)

    /// The menu names the window's actions `win.preferences`, `win.show-help-overlay` and `win.about`.
    init() {
        video.join(photo)
        switcher.addCSSClass("linked")
        switcher.append(photo)
        switcher.append(video)
        photo.setTooltip(tr("Photo mode (V)"))
        photo.setAccessibleName(tr("Photo mode (V)"))
        video.setTooltip(tr("Video mode (V)"))
        video.setAccessibleName(tr("Video mode (V)"))

        let menu = Menu()
        let items = Menu()
        items.append(tr("Preferences"), action: "win.preferences")
        items.append(tr("Keyboard Shortcuts"), action: "win.show-help-overlay")
        items.append(tr("About Lens Camera"), action: "win.about")
        menu.appendSection(items)
        mainMenu = MenuButton(iconName: "open-menu-symbolic", menu: menu)
        mainMenu.makePrimary()
        mainMenu.setTooltip(tr("Main Menu"))
        mainMenu.setAccessibleName(tr("Main Menu"))

        root.setTitleWidget(switcher)
        root.packEnd(mainMenu)
        show(mode: .photo)
    }

    func show(mode: LensCameraMode) {
        photo.isActive = mode == .photo
        video.isActive = mode == .video
    }

    /// Only the camera page has modes (not the viewer, nor the page without a session).
    var showsModes: Bool {
        get { switcher.isVisible }
        set { switcher.isVisible = newValue }
    }

    /// The switcher waits with the capture gate (a mode change needs the camera), not the menu.
    var modeSwitchable: Bool {
        get { photo.isSensitive }
        set {
            photo.isSensitive = newValue
            video.isSensitive = newValue
        }
    }
}
