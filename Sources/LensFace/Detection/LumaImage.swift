/// An 8-bit luma plane, row-major without padding: what the detector reads. RGB and BGRA
/// input is converted with OpenCV's RGB2GRAY weights (BT.601 in 14-bit fixed point), so a
/// colour image gives the detector exactly the plane OpenCV's cvtColor would.
public struct LumaImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public internal(set) var pixels: [UInt8]

    /// 16384×16384 at most per side and 50 Mpx in all (the limit LensCore's JPEG decode has).
    public static let maximumSide = 16_384
    public static let maximumPixels = 50_000_000

    public init(width: Int, height: Int, pixels: [UInt8]) throws(FaceImageError) {
        try Self.check(width: width, height: height, bytes: pixels.count, bytesPerPixel: 1)
        self.width = width
        self.height = height
        self.pixels = pixels.count == width * height ? pixels : Array(pixels[..<(width * height)])
    }

    /// Packed RGB, 3 bytes per pixel.
    public init(rgb: [UInt8], width: Int, height: Int) throws(FaceImageError) {
        try self.init(packed: rgb, width: width, height: height, bytesPerPixel: 3, red: 0, blue: 2)
    }

    /// BGRA, 4 bytes per pixel (alpha ignored), as Cairo/GTK and many cameras deliver it.
    public init(bgra: [UInt8], width: Int, height: Int) throws(FaceImageError) {
        try self.init(packed: bgra, width: width, height: height, bytesPerPixel: 4, red: 2, blue: 0)
    }

    private init(packed: [UInt8], width: Int, height: Int, bytesPerPixel: Int, red: Int, blue: Int) throws(FaceImageError) {
        try Self.check(width: width, height: height, bytes: packed.count, bytesPerPixel: bytesPerPixel)
        self.width = width
        self.height = height
        pixels = [UInt8](unsafeUninitializedCapacity: width * height) { luma, initialized in
            packed.withUnsafeBufferPointer { source in
                for index in 0..<(width * height) {
                    let base = index * bytesPerPixel
                    let r = Int(source[base + red]), g = Int(source[base + 1]), b = Int(source[base + blue])
                    luma[index] = UInt8((r * 4899 + g * 9617 + b * 1868 + 8192) >> 14)
                }
            }
            initialized = width * height
        }
    }

    init(uncheckedWidth width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixels inside `rectangle` (which must lie inside the image).
    func cropped(to rectangle: FaceRectangle) -> LumaImage {
        var crop: [UInt8] = []
        crop.reserveCapacity(rectangle.width * rectangle.height)
        for row in rectangle.y..<(rectangle.y + rectangle.height) {
            let start = row * width + rectangle.x
            crop += pixels[start..<(start + rectangle.width)]
        }
        return LumaImage(uncheckedWidth: rectangle.width, height: rectangle.height, pixels: crop)
    }

    private static func check(width: Int, height: Int, bytes: Int, bytesPerPixel: Int) throws(FaceImageError) {
        guard (1...maximumSide).contains(width), (1...maximumSide).contains(height), width * height <= maximumPixels else {
            throw FaceImageError("image size \(width)×\(height) is outside 1...\(maximumSide) per side or above \(maximumPixels) pixels")
        }
        guard bytes >= width * height * bytesPerPixel else {
            throw FaceImageError("\(bytes) bytes cannot hold \(width)×\(height) pixels of \(bytesPerPixel) bytes")
        }
    }
}

/// An image the detector cannot take (size out of range, too few bytes).
public struct FaceImageError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) { self.description = description }
}
