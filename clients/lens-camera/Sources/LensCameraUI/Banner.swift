import GtkKit

/// An error lensd reported, in its own words, until the user dismisses it.
final class Banner {
    let root = Box(.horizontal, spacing: 8)
    private let message = Label()

    init() {
        root.addCSSClass("banner")
        root.setAlign(vertical: .start)
        message.setWrap(true)
        message.setExpand(horizontal: true)
        message.setAlign(horizontal: .start)
        message.setSelectable(true)
        let dismiss = Button(label: tr("Dismiss"))
        dismiss.setAccessibleName(tr("Dismiss the error"))
        dismiss.onClicked { [unowned self] in root.isVisible = false }
        root.append(message)
        root.append(dismiss)
        root.isVisible = false
    }

    func show(_ text: String) {
        message.text = text
        root.isVisible = true
    }
}
