import GtkKit

/// What the user chose, remembered between runs in ~/.config/lens-camera/settings.ini: the
/// preview fitted or filling the window, and the countdown.
final class Preferences {
    private let file = KeyFile(path: UserFolders.configuration + "/lens-camera/settings.ini")
    private static let group = "preferences"

    var fillsWindow: Bool {
        get { file.string(Self.group, "fill") == "true" }
        set { store("fill", String(newValue)) }
    }

    /// Seconds, one of Countdown.choices.
    var countdown: Int {
        get { file.string(Self.group, "countdown").flatMap(Int.init).flatMap { Countdown.choices.contains($0) ? $0 : nil } ?? 0 }
        set { store("countdown", String(newValue)) }
    }

    private func store(_ key: String, _ value: String) {
        file.set(Self.group, key, value)
        file.save()
    }
}

/// Preferences (Ctrl+,): how the preview fills the window, and where results are kept.
final class PreferencesWindow {
    private let window: Window
    private let fill = Switch()

    init(parent: Window, preferences: Preferences, folders: [String], open: @escaping (String) -> Void,
         fillChanged: @escaping (Bool) -> Void) {
        window = Window(dialogOf: parent, title: tr("Preferences"), width: 460, height: 240)
        let content = Box(.vertical, spacing: 18)
        content.setMargins(24)

        let row = Box(.horizontal, spacing: 12)
        let words = Box(.vertical, spacing: 2)
        let title = Label(tr("Fill the window with the preview"))
        title.alignTextStart()
        let subtitle = Label(tr("Crops the picture's edges; off shows the whole picture"))
        subtitle.alignTextStart()
        subtitle.addCSSClass("dim-label")
        subtitle.setWrap(true)
        words.append(title)
        words.append(subtitle)
        words.setExpand(horizontal: true)
        fill.isOn = preferences.fillsWindow
        fill.setAlign(vertical: .center)
        fill.setAccessibleName(tr("Fill the window with the preview"))
        fill.onChanged { [unowned self] in
            preferences.fillsWindow = fill.isOn
            fillChanged(fill.isOn)
        }
        row.append(words)
        row.append(fill)
        content.append(row)

        for folder in folders {
            let line = Box(.horizontal, spacing: 12)
            let place = Label(tr("Kept in: %@", folder))
            place.alignTextStart()
            place.ellipsizeMiddle()
            place.setExpand(horizontal: true)
            let show = Button(iconName: "folder-open-symbolic")
            show.setTooltip(tr("Show in its folder"))
            show.setAccessibleName(tr("Open %@", folder))
            show.onClicked { open(folder) }
            line.append(place)
            line.append(show)
            content.append(line)
        }
        window.setChild(content)
    }

    func present() { window.present() }
}
