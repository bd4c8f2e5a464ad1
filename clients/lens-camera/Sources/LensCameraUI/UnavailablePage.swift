import GtkKit

/// Shown instead of the camera while there is no session: what is wrong and what to do.
final class UnavailablePage {
    let root = Box(.vertical, spacing: 16)
    private let title = Label(tr("Connecting to lensd…"))
    private let advice = Label()

    init() {
        root.addCSSClass("unavailable")
        root.setAlign(horizontal: .center, vertical: .center)
        title.addCSSClass("unavailable-title")
        advice.setWrap(true)
        advice.setJustifyCenter()
        // Selectable, for copying the command, but not focused: no caret blinking in the words.
        advice.setSelectable(true)
        advice.canFocus = false
        root.append(title)
        root.append(advice)
    }

    func show(title: String, advice: String) {
        self.title.text = title
        self.advice.text = advice
    }
}
