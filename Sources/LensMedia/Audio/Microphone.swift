import FoundationEssentials
import Glibc
import Dispatch
import LensSystem

/// A recording's sound: captures from an ALSA device on a thread of its own, places it on the
/// video's clock (AudioTimeline) and codes it to Opus packets that the recorder takes fragment
/// by fragment. While recording, the camera thread only ever takes a lock to move finished
/// packets, so sound can never hold up the picture; at the end it waits at most `stopTimeout`
/// for the audio thread. When capture fails mid-recording (an error, or a device handing out
/// sound faster than real time) the failure is reported once (`events`) and the track goes on
/// as silence, so the recording keeps its picture and its sync.
public final class Microphone: @unchecked Sendable {  // state below is guarded by `lock` or owned as noted
    public let settings: AudioSettings
    /// Samples (48 kHz) the decoder drops at the start (Opus pre-skip).
    public let preSkip: Int

    private let lock = Lock()
    private let stopped = DispatchSemaphore(value: 0)
    private let events: @Sendable (String) -> Void
    // Guarded by `lock`.
    private var origin: Double?
    private var early: [(samples: [Int16], timestamp: Double)] = []
    private var packets: [AudioSample] = []
    private var packetBytes = 0
    private var stopping = false
    private var running = true
    private var failed: AudioError?
    /// finish gave up waiting for the audio thread, whose read waits on the device: the thread
    /// ends on its own, touching nothing, and the caller completes the track.
    private var abandoned = false
    /// Guarded by `placing`, held by whoever places or codes sound: the audio thread while it
    /// captures (briefly, never across a read), the caller of `takePackets`/`finish` after.
    private let placing = Lock()
    private var timeline: AudioTimeline?
    /// How long finish waits for the audio thread to read what the device holds and end.
    static let stopTimeout = 0.5
    private let encoder: OpusEncoder

    /// Opens the device and starts capturing; throws AudioError (`.permissionDenied`,
    /// `.deviceUnavailable`) when it cannot. `events` hears overruns and failures, for the log.
    public init(settings: AudioSettings, events: @escaping @Sendable (String) -> Void = { _ in }) throws {
        let capture = try ALSACapture(device: settings.device, channels: settings.channels)
        encoder = try OpusEncoder(channels: settings.channels, bitrate: settings.bitrate)
        preSkip = encoder.preSkip
        self.settings = settings
        self.events = events
        Threads.start(named: "lensd-audio") { [self] in run(capture) }
    }

    /// Throws what `init` would (the device cannot be opened), without capturing: whether a
    /// recording could have sound now.
    public static func probe(_ settings: AudioSettings) throws {
        _ = try ALSACapture(device: settings.device, channels: settings.channels)
    }

    /// Position 0 of the track: the first video frame's timestamp (CLOCK_MONOTONIC seconds).
    public func start(at origin: Double) {
        lock.withLock { self.origin = origin }
    }

    /// The capture failure that turned the rest of the track to silence, if any.
    public var failure: AudioError? { lock.withLock { failed } }

    /// Bytes of the packets coded and not taken yet.
    public var pendingBytes: Int { lock.withLock { packetBytes } }

    /// The coded packets that start before `seconds` after the origin. After a failure the
    /// silence up to there is coded here, on the caller's thread (the audio thread is gone).
    public func takePackets(before seconds: Double) -> [AudioSample] {
        let isRunning = lock.withLock { running }
        if !isRunning { codeSilence(before: seconds) }
        return lock.withLock {
            let frames = Int((seconds * Double(AudioSettings.sampleRate)).rounded(.up))
            let count = min(packets.count, (frames + AudioSettings.frameSize - 1) / AudioSettings.frameSize - taken)
            guard count > 0 else { return [] }
            let out = Array(packets.prefix(count))
            packets.removeFirst(count)
            taken += count
            packetBytes -= out.reduce(0) { $0 + $1.data.count }
            return out
        }
    }

    /// Stops capture (within about 0.1 s from a stalled device; within `stopTimeout` from one
    /// whose reads wait for it), completes the track with silence to `seconds` and returns the
    /// packets not taken yet that start before it.
    public func finish(at seconds: Double) -> [AudioSample] {
        let (first, left) = lock.withLock {
            defer { stopping = true }
            return (!stopping, abandoned)
        }
        if !left {
            if stopped.wait(timeout: .now() + Self.stopTimeout) == .success {
                stopped.signal()  // finish may be called again; the thread is gone either way
            } else {
                // A read that waits on the device (alsa-lib's file plugin on a stalled FIFO) must
                // not hold the camera: the audio thread is left to end on its own.
                lock.withLock {
                    abandoned = true
                    running = false
                }
                events("audio capture from \(settings.device) did not stop within \(Self.stopTimeout) s (a read waits on the device); "
                       + "silence completes the track")
            }
        }
        if first { placing.withLock { reportGaps(to: seconds) } }
        return takePackets(before: seconds)
    }

    /// The log's account of the track's silence, at its end. Holds `placing`.
    private func reportGaps(to seconds: Double) {
        if let timeline {
            let rate = Double(AudioSettings.sampleRate)
            if timeline.silence > 0 {
                events(String(cFormat: "%.2f s of silence stand for sound the device did not deliver (stalls, overruns)",
                              Double(timeline.silence) / rate))
            }
            // Sound that was captured but never reached the timeline (a starved audio thread).
            if Double(timeline.position) / rate < seconds - 0.1 {
                events(String(cFormat: "the sound reached %.2f s of the picture's %.2f s; silence completes it",
                              Double(timeline.position) / rate, seconds))
            }
        }
    }

    /// Stops capture without a track to complete (the recording never started).
    public func stop() {
        _ = finish(at: 0)
    }

    // Guarded by `lock`: packets handed out so far.
    private var taken = 0

    private func run(_ capture: ALSACapture) {
        var buffer = [Int16](repeating: 0, count: AudioSettings.frameSize * settings.channels)
        do {
            var draining = false
            var stoppedAt = Double.infinity
            // Once stopping, what the device already captured is still read (without waiting),
            // so the end of the recording keeps its sound.
            repeat {
                let (stop, gone) = lock.withLock { (stopping, abandoned) }
                if gone { break }
                draining = stop
                if draining && stoppedAt == .infinity { stoppedAt = ALSACapture.monotonicNow() }
                switch try capture.read(into: &buffer, timeout: draining ? 0 : 0.1) {
                case .overrun:
                    events("audio capture from \(settings.device) overran; the lost sound is filled with silence")
                case .samples(let frames, let timestamp):
                    if frames > 0 { try place(buffer[..<(frames * settings.channels)], at: timestamp) }
                    // A full read: more may wait, but only sound captured before the stop counts.
                    // A device whose reads wait for new sound (alsa-lib's file plugin on a FIFO)
                    // never runs dry, and draining it would hold the camera's thread for ever.
                    if draining && frames == buffer.count / settings.channels && timestamp < stoppedAt { draining = false }
                }
            } while !draining
        } catch {
            let failure = error as? AudioError ?? AudioError(.failed, "\(error)")
            if !lock.withLock({ abandoned }) {
                events("\(failure); the recording goes on without sound")
                lock.withLock { failed = failure }
            }
        }
        lock.withLock { running = false }
        stopped.signal()
    }

    /// Audio thread: holds the sound until the origin is known, then places and codes it.
    private func place(_ samples: ArraySlice<Int16>, at timestamp: Double) throws {
        placing.lock()
        defer { placing.unlock() }
        guard !lock.withLock({ abandoned }) else { return }
        let ready: [(samples: [Int16], timestamp: Double)]? = lock.withLock {
            guard let origin else {
                early.append((Array(samples), timestamp))
                // Two seconds before the first video frame is more than any camera takes to start.
                if early.count > 200 { early.removeFirst() }
                return nil
            }
            if timeline == nil { timeline = AudioTimeline(channels: settings.channels, origin: origin) }
            defer { early.removeAll() }
            return early + [(Array(samples), timestamp)]
        }
        guard let ready else { return }
        let rate = Double(AudioSettings.sampleRate)
        for chunk in ready {
            let gap = timeline!.place(chunk.samples[...], capturedAt: chunk.timestamp)
            // A stall long enough to hear is told when it ends; shorter ones only in finish's sum.
            if gap >= AudioSettings.sampleRate / 10 {
                let from = timeline!.position - chunk.samples.count / settings.channels - gap
                events("audio capture from \(settings.device) delivered nothing for "
                       + String(cFormat: "%.2f s (from %.2f s of the recording)", Double(gap) / rate, Double(from) / rate)
                       + "; silence fills the gap")
            }
        }
        try codeFrames()
    }

    /// Whoever owns the timeline: codes its whole frames into the packet queue.
    private func codeFrames() throws {
        while let frame = timeline?.nextFrame() {
            let packet = AudioSample(data: try encoder.encode(frame[...]), duration: UInt32(AudioSettings.frameSize))
            lock.withLock {
                packets.append(packet)
                packetBytes += packet.data.count
            }
        }
    }

    /// After the audio thread ended: silence up to `seconds`, coded (a failing encoder leaves the track short).
    private func codeSilence(before seconds: Double) {
        placing.lock()
        defer { placing.unlock() }
        guard let origin = lock.withLock({ origin }) else { return }
        if timeline == nil { timeline = AudioTimeline(channels: settings.channels, origin: origin) }
        let frames = Int((seconds * Double(AudioSettings.sampleRate)).rounded(.up))
        let whole = (frames + AudioSettings.frameSize - 1) / AudioSettings.frameSize * AudioSettings.frameSize
        timeline!.fillSilence(to: whole)
        try? codeFrames()
    }
}
