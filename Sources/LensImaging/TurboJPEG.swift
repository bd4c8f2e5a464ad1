import CTurboJPEG

/// The one place LensCore holds TurboJPEG handles and speaks its constants. A handle lives for
/// one call and is always destroyed: creating one costs microseconds, and nothing is then shared
/// between capture threads that encode at the same time.
package enum TurboJPEG {
    package static let pixelFormatRGB = Int32(TJPF_RGB.rawValue)
    package static let subsampling420 = Int32(TJSAMP_420.rawValue)
    /// JPEG's own limit per side (16-bit fields in the frame header).
    package static let maximumSide = 65_535

    package static func withCompressor<Result>(_ body: (tjhandle) throws -> Result) throws -> Result {
        guard let handle = tjInitCompress() else { throw error("create a JPEG compressor", nil) }
        defer { tjDestroy(handle) }
        return try body(handle)
    }

    package static func withDecompressor<Result>(_ body: (tjhandle) throws -> Result) throws -> Result {
        guard let handle = tjInitDecompress() else { throw error("create a JPEG decompressor", nil) }
        defer { tjDestroy(handle) }
        return try body(handle)
    }

    /// The handle's last error; with no handle, the library's global one (set by a failed init).
    package static func error(_ operation: String, _ handle: tjhandle?) -> ImagingError {
        ImagingError("\(operation): \(String(cString: tjGetErrorStr2(handle)))")
    }
}
