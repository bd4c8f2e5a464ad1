import LensTestSupport

enum JPEGSegments {
    /// The JPEG without its APP11 segments (where C2PA puts its manifest store): what a signer
    /// that only adds its manifest started from. Segments are walked up to SOS; the entropy-coded
    /// data after it is kept whole.
    static func removingAPP11(_ jpeg: [UInt8]) throws -> [UInt8] {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw TestToolError("not a JPEG (no SOI)") }
        var kept: [UInt8] = [0xFF, 0xD8]
        var i = 2
        while i + 4 <= jpeg.count {
            guard jpeg[i] == 0xFF else { throw TestToolError("no marker at offset \(i)") }
            let marker = jpeg[i + 1]
            if marker == 0xDA { break }
            let end = i + 2 + (Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3]))
            guard end <= jpeg.count else { throw TestToolError("segment at offset \(i) runs past the end") }
            if marker != 0xEB { kept += jpeg[i..<end] }
            i = end
        }
        return kept + jpeg[i...]
    }
}
