import C2PA
import FoundationEssentials
import LensSystem

/// `verify`'s other views, in c2patool's conventions: the signer's chain (--certs), the
/// manifest tree (--tree), the store's summary (--info), and the store written to a folder
/// (--extract), as c2pa-rs's Reader::to_folder writes it.
enum VerifyViews {
    /// The active manifest's x5chain as PEM, leaf first.
    static func certificates(_ report: VerificationReport) throws -> String {
        guard let chain = report.signerChain, !chain.isEmpty else {
            throw CommandFailure(.failed, "the active manifest's signature carries no certificate")
        }
        return chain.map(\.pem).joined().trimmed(\.isNewline)
    }

    /// "Tree View:" then the active manifest, its assertions and its ingredients, recursively.
    static func tree(_ report: VerificationReport, file: String) -> String {
        let asset = file.split(separator: "/").last.map(String.init) ?? file
        guard case .object(let manifests)? = ManifestStoreJSON.document(report)?["manifests"], let active = report.manifestLabel else {
            return "Tree View:\n Asset:\(asset)"
        }
        var lines = [" Asset:\(asset), Manifest:\(active)"]
        var visited: Set<String> = []
        func children(of label: String, indent: String) {
            guard visited.insert(label).inserted, let manifest = manifests[label] else { return }
            var nodes: [(text: String, manifest: String?)] = []
            if case .array(let assertions)? = manifest["assertions"] {
                for assertion in assertions {
                    let base = assertion["label"]?.stringValue ?? "?"
                    let instance = assertion["instance"].flatMap { value -> String? in
                        if case .number(let n) = value, n > 1 { return "__\(Int(n) - 1)" }
                        return nil
                    } ?? ""
                    nodes.append(("Assertion:\(base)\(instance)", nil))
                }
            }
            if case .array(let ingredients)? = manifest["ingredients"] {
                for ingredient in ingredients {
                    let title = ingredient["title"]?.stringValue ?? "Untitled"
                    let target = ingredient["active_manifest"]?.stringValue
                    nodes.append((target.map { "Asset:\(title), Manifest:\($0)" } ?? "Asset:\(title)", target))
                }
            }
            for (index, node) in nodes.enumerated() {
                let last = index == nodes.count - 1
                lines.append("\(indent)\(last ? "└── " : "├── ")\(node.text)")
                if let target = node.manifest { children(of: target, indent: indent + (last ? "    " : "│   ")) }
            }
        }
        children(of: active, indent: " ")
        return "Tree View:\n" + lines.joined(separator: "\n")
    }

    /// c2patool --info: the store's size against the file's, the validation issues, the manifest count.
    static func info(_ report: VerificationReport, file: String) throws -> String {
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        let store = report.storeBytes?.count ?? 0
        var lines = ["Information for \(file.split(separator: "/").last.map(String.init) ?? file)",
                     String(cFormat: "Manifest store size = %d (%.2f%% of file size %d)", store, size > 0 ? Double(store) / Double(size) * 100 : 0, size)]
        let issues = report.failures + report.ingredientFailures
        if issues.isEmpty {
            lines.append("Validated")
        } else {
            lines.append("Validation issues:")
            lines += issues.map { "   \($0.code)" }
        }
        let count = report.store?.manifests.count ?? 0
        lines.append(count == 1 ? "One manifest" : "\(count) manifests")
        return lines.joined(separator: "\n")
    }

    /// DIR/manifest_store.json, DIR/manifest_data.c2pa, and each binary assertion at its path.
    static func extract(_ report: VerificationReport, into directory: String) throws {
        let root = URL(fileURLWithPath: directory)
        do {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(ManifestStoreJSON.document(report)).write(to: root.appendingPathComponent("manifest_store.json"))
            try Data(report.storeBytes ?? []).write(to: root.appendingPathComponent("manifest_data.c2pa"))
            for file in report.store.map(EmbeddedFiles.files) ?? [] {
                let url = file.path.reduce(root) { $0.appendingPathComponent($1) }
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.bytes).write(to: url)
            }
        } catch {
            throw CommandFailure(.failed, "cannot write into \(directory): \(errorText(error))")
        }
    }
}
