import LensFace

/// `LBPCascade(xml:)` on arbitrary bytes; a cascade that is accepted is then run over a small
/// image, so a hostile file that passes the reader's checks still cannot make the evaluator
/// read outside its tables or the integral image.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let cascade = try? LBPCascade(xml: bytes) else { return 0 }
    _ = cascade.shape
    // 64×48 pixels from the input itself (repeated), so the windows see varied codes.
    let pixels = (0..<(64 * 48)).map { bytes.isEmpty ? UInt8(0) : bytes[$0 % bytes.count] &* UInt8(truncatingIfNeeded: $0) }
    guard let image = try? LumaImage(width: 64, height: 48, pixels: pixels) else { return 0 }
    for face in FaceDetector(cascade: cascade).detect(image: image, options: .init(minNeighbors: 0)) {
        _ = (face.rectangle, face.confidence, face.quality.sharpness)
    }
    return 0
}
