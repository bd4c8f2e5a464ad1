import Foundation
import LensTestSupport
import XCTest

/// A judge of the MP4 tests besides FFmpeg (FFprobeReport), not lensd code: a Python reader lists
/// root boxes and computes the bmff hash.
enum MP4Oracles {
    struct Layout {
        /// "type:size" of every root box, in file order.
        var boxes: [String]
        var bmffHash: [UInt8]
    }

    /// Root boxes and the c2pa.hash.bmff.v3 hash (ftyp/free/skip/mfra/C2PA uuid excluded), by Python.
    static func layout(_ path: String) throws -> Layout {
        let script = """
        import hashlib, struct, sys
        C2PA = bytes.fromhex('d8fec3d61b0e483c92975828877ec481')
        data = open(sys.argv[1], 'rb').read()
        h, off, boxes = hashlib.sha256(), 0, []
        while off < len(data):
            size, kind = struct.unpack('>I4s', data[off:off + 8])
            if size == 1: size = struct.unpack('>Q', data[off + 8:off + 16])[0]
            kind = kind.decode('latin-1')
            boxes.append('%s:%d' % (kind, size))
            if kind not in ('ftyp', 'free', 'skip', 'mfra') and not (kind == 'uuid' and data[off + 8:off + 24] == C2PA):
                h.update(struct.pack('>Q', off)); h.update(data[off:off + size])
            off += size
        print(' '.join(boxes)); print(h.hexdigest())
        """
        let lines = String(decoding: try run([try TestTools.python(), "-c", script, path]), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        guard lines.count == 2 else { throw TestToolError("box lister printed \(lines)") }
        let hex = Array(lines[1].utf8)
        let hash = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<($0 + 2)], as: UTF8.self), radix: 16)! }
        return Layout(boxes: lines[0].split(separator: " ").map(String.init), bmffHash: hash)
    }

    /// Just the box types of `layout(path).boxes`.
    static func rootTypes(_ path: String) throws -> [String] {
        try layout(path).boxes.map { String($0.prefix(4)) }
    }

    private static func run(_ argv: [String]) throws -> Data {
        let result = try runProcess(argv)
        guard result.status == 0 else {
            throw TestToolError("\(argv[0]) exited \(result.status): \(String(decoding: result.stderr, as: UTF8.self))")
        }
        return result.stdout
    }
}
