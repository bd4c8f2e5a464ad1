/// Sensor-like noise on rendered frames: uniform ±amplitude per channel, new every frame, as
/// FACTS §1 measured with. The synthetic scene alone is mostly flat and compresses to almost
/// nothing, which would flatter every video figure.
struct SensorNoise {
    let amplitude: Int
    private var random = SplitMix64(seed: 1)

    init(amplitude: Int) { self.amplitude = amplitude }

    mutating func add(to rgb: inout [UInt8]) {
        guard amplitude > 0 else { return }
        let span = UInt64(2 * amplitude + 1)
        rgb.withUnsafeMutableBufferPointer { pixels in
            var bits: UInt64 = 0, left = 0
            for index in pixels.indices {
                if left == 0 { bits = random.next(); left = 8 }
                let offset = Int((bits & 0xFF) % span) - amplitude
                bits >>= 8
                left -= 1
                pixels[index] = UInt8(clamping: Int(pixels[index]) + offset)
            }
        }
    }
}

/// Fast, seeded noise; statistical quality does not matter here.
private struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
