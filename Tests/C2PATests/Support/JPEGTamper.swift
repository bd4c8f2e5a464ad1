import LensTestSupport
import Foundation

/// Byte-level damage to signed JPEGs, for tamper tests.
struct JPEGTamper: ByteTampering {
    var bytes: [UInt8]

    init(_ url: URL) throws { bytes = Array(try Data(contentsOf: url)) }

    /// (offset, total length) of every header segment up to SOS.
    var segments: [(marker: UInt8, offset: Int, length: Int)] {
        var out: [(UInt8, Int, Int)] = []
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF, bytes[position + 1] != 0xDA {
            let length = 2 + (Int(bytes[position + 2]) << 8 | Int(bytes[position + 3]))
            out.append((bytes[position + 1], position, length))
            position += length
        }
        return out
    }

    /// The C2PA APP11 segments (JPEG XT "JP" whose store starts with a c2pa superbox, and its continuations).
    var storeSegments: [(offset: Int, length: Int)] {
        segments.filter { $0.marker == 0xEB && bytes[$0.offset + 4] == 0x4A && bytes[$0.offset + 5] == 0x50 }
            .map { ($0.offset, $0.length) }
            .filter { seg in
                let instance = Array(bytes[(seg.offset + 6)..<(seg.offset + 8)])
                return instance == storeInstance
            }
    }

    private var storeInstance: [UInt8] {
        let first = segments.first { s in
            s.marker == 0xEB && s.length > 32 && Array(bytes[(s.offset + 28)..<(s.offset + 32)]) == Array("c2pa".utf8)
        }!
        return Array(bytes[(first.offset + 6)..<(first.offset + 8)])
    }

    /// Offset just past the manifest store (the claim signature's r‖s ends there).
    var storeEnd: Int { storeSegments.last.map { $0.offset + $0.length }! }

    mutating func insert(_ byte: UInt8, at offset: Int) { bytes.insert(byte, at: offset) }

    /// Swaps the first two store segments in file order, keeping their sequence numbers.
    mutating func swapFirstTwoStoreSegments() {
        let segs = storeSegments
        precondition(segs.count >= 2, "needs a multi-segment store")
        let a = Array(bytes[segs[0].offset..<(segs[0].offset + segs[0].length)])
        let b = Array(bytes[segs[1].offset..<(segs[1].offset + segs[1].length)])
        bytes.replaceSubrange(segs[0].offset..<(segs[1].offset + segs[1].length), with: b + a)
    }
}
