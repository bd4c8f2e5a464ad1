import GtkKit

/// Why capture is disabled, over the preview: a plain sentence a reason, and lensd's own words
/// (which gpsd, which error) behind a Details expander.
final class ReasonsView {
    let root = Box(.vertical, spacing: 4)
    private let summary = Label()
    private let details = Label()
    private let expander: Expander

    init() {
        root.addCSSClass("reasons")
        root.setAlign(horizontal: .center, vertical: .end)
        summary.setWrap(true)
        summary.setJustifyCenter()
        summary.setAccessibleDescription(tr("Why capture is disabled"))
        details.setWrap(true)
        details.setMaxWidthChars(70)
        details.setSelectable(true)
        details.canFocus = false
        details.addCSSClass("reasons-details")
        details.setAccessibleDescription(tr("lensd's details"))
        expander = Expander(tr("Details"), child: details)
        expander.addCSSClass("reasons-expander")
        root.append(summary)
        root.append(expander)
        root.isVisible = false
    }

    func show(_ reasons: [GateReason], captureEnabled: Bool) {
        root.isVisible = !captureEnabled && !reasons.isEmpty
        summary.text = reasons.map(\.summary).joined(separator: "\n")
        let lensdWords = reasons.compactMap(\.detail)
        details.text = lensdWords.joined(separator: "\n")
        expander.isVisible = !lensdWords.isEmpty
    }
}
