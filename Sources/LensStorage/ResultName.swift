import C2PA

/// The names lensd accepts for result files. Names come from lensd itself, but they are checked
/// anyway because they become path components.
enum ResultName {
    /// A lowercase UUID string: 8-4-4-4-12 hex digits.
    static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count == 36 else { return false }
        return bytes.indices.allSatisfy { index in
            [8, 13, 18, 23].contains(index) ? bytes[index] == UInt8(ascii: "-") : isLowercaseHexDigit(bytes[index])
        }
    }

    /// 1–8 lowercase letters or digits, e.g. "jpg" or "mp4".
    static func isValidExtension(_ fileExtension: String) -> Bool {
        (1...8).contains(fileExtension.utf8.count)
            && fileExtension.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || isDigit($0) }
    }

    /// "<name>.<ext>" split, when both halves are valid.
    static func parseFileName(_ fileName: String) -> (name: String, fileExtension: String)? {
        guard let dot = fileName.firstIndex(of: ".") else { return nil }
        let name = String(fileName[..<dot])
        let fileExtension = String(fileName[fileName.index(after: dot)...])
        guard isValid(name), isValidExtension(fileExtension) else { return nil }
        return (name, fileExtension)
    }

    /// The MIME type of a result found on disk at startup, when the one given to `store` is no
    /// longer known (it is kept in memory only).
    static func mime(forExtension fileExtension: String) -> String {
        AssetFormat.all.first { $0.fileExtension == fileExtension }?.mediaType ?? "application/octet-stream"
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
