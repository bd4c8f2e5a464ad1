import LensTestSupport
import Foundation
@testable import C2PA
@testable import C2PAEncoding

extension TestMP4 {
    /// Copies `input` with a `free` box of `size` bytes spliced in right after ftyp (chunk offsets
    /// moved to match), the layout lensd's recorder writes; returns the box's range.
    static func withReserve(_ input: URL, size: Int, into output: URL) throws -> Range<Int> {
        var bytes = Array(try Data(contentsOf: input))
        let boxes = try BMFFScanner.children(of: bytes[...], at: 0)
        for moov in boxes where moov.type == "moov" {
            var moved = Array(bytes[moov.range])
            try MP4ChunkOffsets.shift(moov: &moved, box: moov, by: size)
            bytes.replaceSubrange(moov.range, with: moved)
        }
        var free: [UInt8] = []
        free.appendBigEndian(UInt32(size))
        free.append(ascii: "free")
        free += [UInt8](repeating: 0, count: size - 8)
        bytes.insert(contentsOf: free, at: boxes[0].end)
        try Data(bytes).write(to: output)
        return boxes[0].end..<(boxes[0].end + size)
    }
}
