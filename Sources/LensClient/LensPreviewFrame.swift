/// One frame of a live preview: a baseline JPEG of the camera's picture, never signed. lensd
/// marks each with a COM segment `lensd-preview seq=N pts_us=T`, read back here.
public struct LensPreviewFrame: Sendable {
    public let jpeg: [UInt8]
    /// The camera's frame number (FaceDetected events name frames by it); increases.
    public let sequence: UInt64
    /// The frame's capture time on a monotonic clock, in microseconds; only differences mean something.
    public let timestampMicroseconds: Int64

    public init(jpeg: [UInt8]) throws(MJPEGSplitter.Malformed) {
        guard let comment = Self.comment(in: jpeg), comment.hasPrefix("lensd-preview ") else {
            throw MJPEGSplitter.Malformed(description: "a preview frame without its lensd-preview comment")
        }
        var fields: [Substring: Substring] = [:]
        for pair in comment.split(separator: " ").dropFirst() {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        guard let seq = fields["seq"].flatMap({ UInt64($0) }), let pts = fields["pts_us"].flatMap({ Int64($0) }) else {
            throw MJPEGSplitter.Malformed(description: "a lensd-preview comment without seq and pts_us: \(comment)")
        }
        self.jpeg = jpeg
        sequence = seq
        timestampMicroseconds = pts
    }

    /// The first COM segment's text, looked for among the segments before the first scan.
    static func comment(in jpeg: [UInt8]) -> String? {
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF, jpeg[at + 1] != 0xDA {
            let length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
            guard length >= 2, at + 2 + length <= jpeg.count else { return nil }
            if jpeg[at + 1] == 0xFE { return String(decoding: jpeg[(at + 4)..<(at + 2 + length)], as: UTF8.self) }
            at += 2 + length
        }
        return nil
    }
}
