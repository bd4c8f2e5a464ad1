/// Cuts a byte stream of JPEGs back to back (lensd's preview, `-f mjpeg` in FFmpeg's terms) into
/// whole frames, by the JPEG syntax itself: segments by their lengths, then the entropy-coded
/// data up to the next marker that is neither a stuffed FF00 nor a restart marker — so an FF D9
/// inside a comment or a table cannot end a frame early.
public struct MJPEGSplitter: Sendable {
    public struct Malformed: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// A longer frame is refused: a stream that never ends a frame must not fill memory.
    public static let maximumFrameBytes = 32 << 20

    private var buffer: [UInt8] = []
    /// Where parsing of the frame at the start of `buffer` goes on.
    private var position = 0
    private var inEntropyData = false

    public init() {}

    /// Bytes received so far that belong to a frame not yet complete.
    public var pendingByteCount: Int { buffer.count }

    /// Adds `bytes` and returns the frames they completed, in order.
    public mutating func append(_ bytes: some Collection<UInt8>) throws(Malformed) -> [[UInt8]] {
        buffer.append(contentsOf: bytes)
        var frames: [[UInt8]] = []
        while let end = try frameEnd() {
            frames.append(Array(buffer[..<end]))
            buffer.removeFirst(end)
            position = 0
            inEntropyData = false
        }
        guard buffer.count <= Self.maximumFrameBytes else {
            throw Malformed(description: "a frame of more than \(Self.maximumFrameBytes) bytes")
        }
        return frames
    }

    /// The end of the first frame (just past its EOI), or nil when more bytes are needed.
    private mutating func frameEnd() throws(Malformed) -> Int? {
        if position == 0 {
            guard buffer.count >= 2 else { return nil }
            guard buffer[0] == 0xFF, buffer[1] == 0xD8 else { throw Malformed(description: "a frame does not start with SOI") }
            position = 2
        }
        while true {
            if inEntropyData {
                // Scan for a marker; FF00 is a stuffed FF and FFD0–FFD7 are restart markers.
                while position + 1 < buffer.count {
                    if buffer[position] == 0xFF, buffer[position + 1] != 0x00, !(0xD0...0xD7).contains(buffer[position + 1]) {
                        break
                    }
                    position += 1
                }
                guard position + 1 < buffer.count else { return nil }
                inEntropyData = false
            }
            guard position + 1 < buffer.count else { return nil }
            guard buffer[position] == 0xFF else { throw Malformed(description: "no marker where one belongs (offset \(position))") }
            let marker = buffer[position + 1]
            switch marker {
            case 0xFF:
                position += 1  // fill byte
            case 0xD9:
                return position + 2
            case 0x01:
                position += 2
            case 0xD0...0xD7:
                // A restart marker reached after fill bytes: the scan goes on.
                position += 2
                inEntropyData = true
            default:
                guard position + 3 < buffer.count else { return nil }
                let length = Int(buffer[position + 2]) << 8 | Int(buffer[position + 3])
                guard length >= 2 else { throw Malformed(description: "a segment length of \(length)") }
                guard position + 2 + length <= buffer.count else { return nil }
                position += 2 + length
                inEntropyData = marker == 0xDA
            }
        }
    }
}
