import Foundation
@testable import LensCamera
@testable import LensCore

/// A clock tests move by hand, so frame numbers and the burned-in time are known.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var now: Date

    init(_ start: Date) { now = start }

    func read() -> Date { lock.withLock { now } }

    func advance(by seconds: TimeInterval) { lock.withLock { now += seconds } }
}

extension RGBImage {
    /// Reads the synthetic camera's frame stamp back with its own font and layout: each dot is
    /// sampled at its centre. "?" marks a cell that matches no glyph.
    func stampLines(lengths: [Int]) -> [String] {
        let stamp = FrameStamp(frameHeight: height)
        return lengths.enumerated().map { line, length in
            String((0..<length).map { column -> Character in
                let rows = (0..<BitmapFont.glyphHeight).map { row -> UInt8 in
                    (0..<BitmapFont.glyphWidth).reduce(0) { bits, dot in
                        let x = stamp.origin + column * stamp.advance + dot * stamp.scale + stamp.scale / 2
                        let y = stamp.origin + line * stamp.lineHeight + row * stamp.scale + stamp.scale / 2
                        let pixel = pixel(x: x, y: y)
                        let isLit = (pixel.red + pixel.green + pixel.blue) / 3 > 128
                        return bits | (isLit ? 0x10 >> UInt8(dot) : 0)
                    }
                }
                return BitmapFont.glyphs.first { $0.value == rows }?.key ?? "?"
            })
        }
    }
}
