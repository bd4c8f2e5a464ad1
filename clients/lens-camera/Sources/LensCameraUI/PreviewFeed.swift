import Foundation
import GtkKit
import LensClient
import Synchronization

/// Reads a preview's frames off its pipe, decodes each off the main context, and hands the
/// newest to `show` on the main context. One post at a time: a frame that arrives while the
/// previous one waits for the main loop replaces it, so a busy UI skips frames instead of
/// falling behind.
final class PreviewFeed: Sendable {
    private let newest = Mutex<Texture?>(nil)
    private let show: @Sendable (Texture) -> Void

    init(show: @escaping @Sendable (Texture) -> Void) { self.show = show }

    /// Runs until the preview ends; returns then (so the caller can open a new one).
    func run(_ preview: LensPreview) async {
        do {
            for try await frame in preview {
                guard let texture = try? Texture(encoded: frame.jpeg) else { continue }
                offer(texture)
            }
        } catch {
            // The preview ended (session stopped, lensd gone): the session decides what follows.
        }
    }

    private func offer(_ texture: Texture) {
        let wasEmpty = newest.withLock { slot in
            defer { slot = texture }
            return slot == nil
        }
        guard wasEmpty else { return }
        MainContext.post { [self] in
            if let texture = newest.withLock({ slot in defer { slot = nil }; return slot }) { show(texture) }
        }
    }
}
