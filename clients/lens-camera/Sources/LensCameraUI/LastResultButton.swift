import GtkKit

/// The newest result as a round thumbnail at the start of the control bar, as GNOME Snapshot
/// shows it, with a badge once the app has verified the kept file; a click opens the viewer.
/// Hidden until the first result.
final class LastResultButton {
    let root: Overlay
    let button: Button
    private let picture = Image(pixelSize: Style.lastResultSize)
    private let badge = Label("…")
    private var badgeStyle = "pending"

    init() {
        button = Button(child: picture)
        button.addCSSClass("last-result")
        button.clipsChildren()
        // The badge sits on the button's corner, outside the circle the picture is cut to.
        root = Overlay(child: button)
        badge.addCSSClass("badge")
        badge.addCSSClass(badgeStyle)
        badge.setAlign(horizontal: .end, vertical: .end)
        badge.receivesPointer = false
        root.addLayer(badge)
        root.setAlign(vertical: .center)
        root.isVisible = false
    }

    func show(_ result: RunResults.Result?) {
        guard let result else {
            root.isVisible = false
            return
        }
        root.isVisible = true
        // The middle square, cut to a circle by the button.
        picture.show(result.thumbnail?.centreSquare(side: Style.lastResultSize))
        let (text, style, words) = result.verdict?.badge ?? ("…", "pending", tr("Being signed by lensd…"))
        badge.text = text
        badge.removeCSSClass(badgeStyle)
        badge.addCSSClass(style)
        badgeStyle = style
        let what = result.kind == .photo ? tr("Open the last photo") : tr("Open the last video")
        button.setAccessibleName("\(what): \(words)")
        button.setTooltip(what)
    }
}
