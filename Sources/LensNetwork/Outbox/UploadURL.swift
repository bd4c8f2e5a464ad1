/// upload-url: an http(s) URL template in which `{name}` and `{ext}` become the result's name
/// (a UUID) and file extension. Both are lensd's own, never a client's, so nothing needs escaping.
public enum UploadURL {
    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    /// Checks a template: http or https, a host, and `{name}` somewhere so that no two results
    /// share a URL (one would overwrite the other).
    public static func validate(_ template: String) throws {
        let lower = template.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else {
            throw Invalid(description: "upload-url must start with https:// (or http:// for tests), not \(template)")
        }
        let rest = template.drop { $0 != "/" }.dropFirst(2)
        guard let host = rest.split(separator: "/", omittingEmptySubsequences: false).first, !host.isEmpty else {
            throw Invalid(description: "upload-url has no host: \(template)")
        }
        guard template.contains("{name}") else {
            throw Invalid(description: "upload-url must contain {name}, or every result would go to the same URL: \(template)")
        }
        guard !template.contains(where: { $0.isWhitespace }) else {
            throw Invalid(description: "upload-url must not contain spaces: \(template)")
        }
    }

    public static func expand(_ template: String, name: String, fileExtension: String) -> String {
        template.replacing("{name}", with: name).replacing("{ext}", with: fileExtension)
    }
}
