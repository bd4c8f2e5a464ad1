/// 8-bit planar 4:2:0, BT.601 limited range (what H.264 decoders assume without VUI range flags).
/// The encoder's input: one full-size luma plane and two half-size chroma planes, unpadded.
public struct I420Image: Sendable {
    public let width: Int
    public let height: Int
    /// Strides: width for y, width / 2 for u and v.
    public var y: [UInt8]
    public var u: [UInt8]
    public var v: [UInt8]

    /// A black image. Odd sizes are rounded down to even, as the conversions drop a frame's
    /// last odd row or column; at least 2×2.
    public init(width: Int, height: Int) {
        precondition(width >= 2 && height >= 2, "I420 image of \(width)×\(height)")
        self.width = width & ~1
        self.height = height & ~1
        y = [UInt8](repeating: 16, count: self.width * self.height)
        u = [UInt8](repeating: 128, count: self.width * self.height / 4)
        v = u
    }

    var chromaWidth: Int { width / 2 }
    var chromaHeight: Int { height / 2 }
}
