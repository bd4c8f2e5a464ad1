import FoundationEssentials

/// The binary assertions of a store (thumbnails, icons, embedded files), with the relative paths
/// c2pa-rs's `Reader::to_folder` writes them at: `MANIFEST/c2pa.assertions/LABEL`, a `:` in the
/// manifest label written `_`. Labels come from the file: one that could leave the folder (a
/// `/`, `.` or `..`) is not offered.
public enum EmbeddedFiles {
    public struct File: Sendable {
        public var path: [String]
        public var bytes: [UInt8]
    }

    public static func files(in store: ManifestStore) -> [File] {
        store.manifests.flatMap { manifest -> [File] in
            manifest.assertions.compactMap { box in
                guard let label = box.label, let bytes = box.content("bidb") else { return nil }
                let path = [manifest.label.replacing(":", with: "_"), Labels.assertionStore, label]
                guard path.allSatisfy(isSafeComponent) else { return nil }
                return File(path: path, bytes: bytes)
            }
        }
    }

    static func isSafeComponent(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }
}
