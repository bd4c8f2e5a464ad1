import Foundation

/// Phil Harvey's exiftool (Debian's libimage-exiftool-perl), the reader most photo software
/// agrees with, on a file: every tag it finds, by group and name ("IFD0:Make", "GPS:GPSLatitudeRef",
/// "XMP-tiff:Model", "Keys:GPSCoordinates"), and its warnings.
public struct ExifToolReport {
    /// `-n`: numbers as numbers (GPSLatitude unsigned, its Ref "S"/"N"; Composite:GPSLatitude signed).
    public let tags: [String: OracleJSON]
    /// What `exiftool -validate` warns about the file's structure.
    public let warnings: [String]

    public subscript(tag: String) -> OracleJSON? { tags[tag] }

    public static func read(_ file: URL) throws -> ExifToolReport {
        let run = try runProcess(["exiftool", "-j", "-G1", "-n", "-a", "-validate", "-warning", "-all", file.path])
        guard run.status == 0 || run.status == 1,
              case .array(let entries) = try JSONDecoder().decode(OracleJSON.self, from: run.stdout),
              case .object(let tags) = entries.first
        else {
            throw TestToolError("exiftool \(file.path) exited \(run.status): " + String(decoding: run.stderr, as: UTF8.self))
        }
        // With -a, repeated tags come as "ExifTool:Warning", "ExifTool:Warning (1)"…; none is one that matters here.
        let warnings = tags.filter { $0.key.hasPrefix("ExifTool:Warning") }.compactMap { $0.value.string }
        return ExifToolReport(tags: tags, warnings: warnings)
    }
}

public extension OracleJSON {
    var double: Double? { if case .number(let n) = self { return n } else { return nil } }
}
