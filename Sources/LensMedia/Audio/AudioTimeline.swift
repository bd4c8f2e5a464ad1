/// Places captured sound on the recording's clock: position 0 is the first video frame's time
/// (`origin`, on the same monotonic clock as the capture timestamps). Sound before it is cut,
/// a gap (a device that stalled or overran) becomes silence, and sound that would overlap what is
/// already placed is dropped, so a sample's position is always its capture time: sync never
/// shifts, whatever the device does. Hands out whole 20 ms frames for the encoder.
struct AudioTimeline {
    /// Gaps and overlaps up to this many frames (10 ms) are timestamp jitter, not lost sound.
    static let tolerance = AudioSettings.sampleRate / 100

    let channels: Int
    let origin: Double
    /// Frames placed so far: the next frame's position.
    private(set) var position = 0
    /// Silent frames put in for gaps in what the device delivered (not counting `fillSilence`).
    private(set) var silence = 0
    /// Frames already handed out as whole Opus frames.
    private(set) var taken = 0
    private var placed: [Int16] = []

    init(channels: Int, origin: Double) {
        self.channels = channels
        self.origin = origin
    }

    /// Places `samples` (interleaved, whole frames) captured from `timestamp` on. Returns the
    /// frames of silence put in before them for a gap (0 when they follow on).
    @discardableResult
    mutating func place(_ samples: ArraySlice<Int16>, capturedAt timestamp: Double) -> Int {
        let frames = samples.count / channels
        let start = Int(((timestamp - origin) * Double(AudioSettings.sampleRate)).rounded())
        var skipped = 0, gap = 0
        if start > position + Self.tolerance {
            gap = start - position
            silence += gap
            fillSilence(to: start)
        } else if start < position - Self.tolerance || start < 0 {
            skipped = min(frames, position - start)
        }
        guard skipped < frames else { return gap }
        placed.append(contentsOf: samples.dropFirst(skipped * channels).prefix((frames - skipped) * channels))
        position += frames - skipped
        return gap
    }

    /// Silence up to `target` frames (nothing when already there).
    mutating func fillSilence(to target: Int) {
        guard target > position else { return }
        placed.append(contentsOf: repeatElement(0, count: (target - position) * channels))
        position = target
    }

    /// The next whole 20 ms frame, interleaved; nil until one is placed.
    mutating func nextFrame() -> [Int16]? {
        let count = AudioSettings.frameSize * channels
        guard placed.count >= count else { return nil }
        let frame = Array(placed.prefix(count))
        placed.removeFirst(count)
        taken += AudioSettings.frameSize
        return frame
    }
}
