import GtkKit

/// The results of this run, newest first: a thumbnail at once, then a badge saying what lensd's
/// verifier made of the kept file. Clicking one shows its details (who signed it, when, where,
/// with which device) and a button that opens the folder it was kept in.
final class ThumbnailStrip {
    static let thumbnailSize = (width: 96, height: 72)

    let root: HorizontalScroller
    private let row = Box(.horizontal)
    private var items: [String: Item] = [:]
    var onOpen: (_ file: String) -> Void = { _ in }

    private final class Item {
        let button: Button
        let badge = Label("…")
        let details = Label(tr("Being signed by lensd…"))
        var file: String?
        var popover: Popover?
        init(button: Button) { self.button = button }
    }

    init() {
        row.addCSSClass("strip")
        row.setAccessibleName(tr("Captured photos and videos"))
        root = HorizontalScroller(child: row)
        root.setSizeRequest(height: Style.stripHeight)
    }

    func add(name: String, image: Texture?, kind: ResultKind) {
        guard items[name] == nil else { return }
        let picture = Picture()
        picture.fit = .cover
        picture.allowShrinking()
        picture.setSizeRequest(width: Self.thumbnailSize.width, height: Self.thumbnailSize.height)
        picture.show(image)
        let overlay = Overlay(child: picture)
        let button = Button(child: overlay)
        let item = Item(button: button)
        item.badge.addCSSClass("badge")
        item.badge.addCSSClass("pending")
        item.badge.setAlign(horizontal: .end, vertical: .end)
        overlay.addLayer(item.badge)
        if case .video(let duration) = kind {
            let length = Label(DisplayText.duration(duration))
            length.addCSSClass("video-length")
            length.setAlign(horizontal: .start, vertical: .end)
            overlay.addLayer(length)
        }
        button.setAccessibleName(kind == .photo ? tr("Photo %@: being signed", name) : tr("Video %@: being signed", name))
        button.setTooltip(tr("Being signed by lensd…"))
        button.onClicked { [unowned self, unowned item] in showDetails(item) }
        items[name] = item
        row.prepend(button)
    }

    func mark(name: String, verdict: Verdict, file: String?) {
        guard let item = items[name] else { return }
        item.file = file
        item.badge.removeCSSClass("pending")
        let (text, style, words, provenance): (String, String, String, Provenance?) = switch verdict {
        case .trusted(let provenance): ("✔", "verified", tr("Verified: signed by a device this lensd trusts"), provenance)
        case .valid(let provenance): ("✔?", "unsigned", tr("Signed, but not by a device this lensd trusts"), provenance)
        case .invalid(let why): ("✘", "invalid", tr("Verification failed: %@", why), nil)
        case .unsigned(let why): (tr("unsigned"), "unsigned", tr("Not signed: %@", why), nil)
        case .notKept(let why): ("!", "invalid", tr("Not kept: %@", why), nil)
        }
        item.badge.text = text
        item.badge.addCSSClass(style)
        let lines = [words] + (provenance?.lines ?? []) + (file.map { [tr("Kept in: %@", $0)] } ?? [])
        item.details.text = lines.joined(separator: "\n")
        item.button.setAccessibleName("\(name): \(words)")
        item.button.setTooltip(item.details.text)
    }

    private func showDetails(_ item: Item) {
        if item.popover == nil {
            let content = Box(.vertical, spacing: 8)
            content.setMargins(8)
            item.details.setSelectable(true)
            item.details.canFocus = false
            content.append(item.details)
            let open = Button(label: tr("Open folder"))
            open.setAccessibleName(tr("Open the folder the file was kept in"))
            open.onClicked { [unowned self, unowned item] in
                if let file = item.file { onOpen(file) }
                item.popover?.popdown()
            }
            content.append(open)
            item.popover = Popover(attachedTo: item.button, child: content)
        }
        item.popover?.popup()
    }
}
