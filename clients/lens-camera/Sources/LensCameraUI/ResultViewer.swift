import Foundation
import GtkKit

/// A result of this run, large, with what its manifest says and where it was kept: open it in
/// the desktop's viewer or player, show its folder, delete it, or step to the next one.
final class ResultViewer {
    let root = Box(.vertical)
    private let results: RunResults
    private var index = 0

    private let back = Button(iconName: "camera-photo-symbolic")
    private let position = Label()
    private let older = Button(iconName: "go-previous-symbolic")
    private let newer = Button(iconName: "go-next-symbolic")
    private let open = Button(iconName: "image-x-generic-symbolic")
    private let folder = Button(iconName: "folder-open-symbolic")
    private let delete = Button(iconName: "user-trash-symbolic")
    private let picture = Picture()
    private let length = Label()
    private let details = Label()

    var onBack: () -> Void = {}
    var onOpen: (_ file: String) -> Void = { _ in }
    var onDelete: (_ result: RunResults.Result) -> Void = { _ in }

    init(results: RunResults) {
        self.results = results
        let bar = Box(.horizontal, spacing: 6)
        bar.addCSSClass("viewer-bar")
        position.setExpand(horizontal: true)
        position.addCSSClass("viewer-position")
        for (button, words) in [(back, tr("Back to the camera (Esc)")), (older, tr("Older result")), (newer, tr("Newer result")),
                                (open, tr("Open in the image viewer or video player")), (folder, tr("Show in its folder")),
                                (delete, tr("Delete from lensd and move the kept file to the trash"))] {
            button.setTooltip(words)
            button.setAccessibleName(words)
        }
        delete.addCSSClass("destructive-action")
        bar.append(back)
        bar.append(position)
        for button in [older, newer, open, folder, delete] { bar.append(button) }

        picture.allowShrinking()
        picture.setExpand(horizontal: true, vertical: true)
        picture.addCSSClass("viewer-picture")
        let framed = Overlay(child: picture)
        length.addCSSClass("video-length")
        length.setAlign(horizontal: .center, vertical: .end)
        length.receivesPointer = false
        framed.addLayer(length)

        details.setWrap(true)
        details.alignTextStart()
        details.setSelectable(true)
        details.canFocus = false
        details.addCSSClass("viewer-details")
        details.setAccessibleDescription(tr("What the manifest says"))

        root.append(bar)
        root.append(framed)
        root.append(details)
        back.onClicked { [unowned self] in onBack() }
        older.onClicked { [unowned self] in show(at: index + 1) }
        newer.onClicked { [unowned self] in show(at: index - 1) }
        open.onClicked { [unowned self] in if let file = current?.file { onOpen(file) } }
        folder.onClicked { [unowned self] in
            if let file = current?.file { onOpen(URL(fileURLWithPath: file).deletingLastPathComponent().path) }
        }
        delete.onClicked { [unowned self] in if let current { onDelete(current) } }
    }

    private var current: RunResults.Result? { results.all.indices.contains(index) ? results.all[index] : nil }

    /// Shows the result `name`; false when there is none of that name.
    @discardableResult
    func show(name: String) -> Bool {
        guard let index = results.index(of: name) else { return false }
        show(at: index)
        return true
    }

    /// After the results changed: the same result again (its verdict may have arrived), or a
    /// neighbour when it was deleted; false when none is left.
    func refresh(keeping name: String?) -> Bool {
        if let name, show(name: name) { return true }
        guard !results.all.isEmpty else { return false }
        show(at: min(index, results.all.count - 1))
        return true
    }

    var shownName: String? { current?.name }

    private func show(at newIndex: Int) {
        guard results.all.indices.contains(newIndex) else { return }
        index = newIndex
        let result = results.all[newIndex]
        let count = results.all.count
        position.text = result.kind == .photo ? tr("Photo %d of %d", count - newIndex, count) : tr("Video %d of %d", count - newIndex, count)
        older.isSensitive = newIndex + 1 < count
        newer.isSensitive = newIndex > 0
        open.isSensitive = result.file != nil
        folder.isSensitive = result.file != nil
        // The kept photo itself where there is one (it is the signed file); else the thumbnail.
        let full = result.kind == .photo ? result.file.flatMap { try? Texture(encoded: Array(Data(contentsOf: URL(fileURLWithPath: $0)))) } : nil
        picture.show(full ?? result.thumbnail)
        if case .video(let duration) = result.kind {
            length.text = "▶ " + DisplayText.duration(duration)
            length.isVisible = true
        } else {
            length.isVisible = false
        }
        let verdict = result.verdict
        let lines = [verdict?.badge.words ?? tr("Being signed by lensd…")] + (verdict?.provenance?.lines ?? [])
            + (result.file.map { [tr("Kept in: %@", $0)] } ?? [])
        details.text = lines.joined(separator: "\n")
    }
}
