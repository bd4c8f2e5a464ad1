import FoundationEssentials
import Glibc
import Dispatch
import LensSystem
import Synchronization

/// A recording's sound: captures from an ALSA device on a thread of its own, places it on the
/// video's clock (AudioTimeline) and codes it to Opus packets that the recorder takes fragment
/// by fragment. While recording, the camera thread only ever takes a lock to move finished
/// packets, so sound can never hold up the picture; at the end it waits at most `stopTimeout`
/// for the audio thread. When capture fails mid-recording (an error, or a device handing out
/// sound faster than real time) the failure is reported once (`events`) and the track goes on
/// as silence, so the recording keeps its picture and its sync.
public final class Microphone: Sendable {
    public let settings: AudioSettings
    /// Samples (48 kHz) the decoder drops at the start (Opus pre-skip).
    public let preSkip: Int

    private let state = Mutex(State())
    /// Held by whoever places or codes sound: the audio thread while it captures (briefly, never
    /// across a read), the caller of `takePackets`/`finish` after. Taken before `state`, never inside it.
    private let coding: Mutex<Coding>
    private let stopped = DispatchSemaphore(value: 0)
    private let events: @Sendable (String) -> Void
    /// How long finish waits for the audio thread to read what the device holds and end.
    static let stopTimeout = 0.5

    /// What the audio thread and the camera thread share, each touch brief.
    private struct State {
        var origin: Double?
        var early: [(samples: [Int16], timestamp: Double)] = []
        var packets: [AudioSample] = []
        var packetBytes = 0
        /// Packets handed out so far.
        var taken = 0
        var stopping = false
        var running = true
        var failed: AudioError?
        /// finish gave up waiting for the audio thread, whose read waits on the device: the thread
        /// ends on its own, touching nothing, and the caller completes the track.
        var abandoned = false
    }

    private struct Coding {
        var timeline: AudioTimeline?
        let encoder: OpusEncoder
    }

    /// Opens the device and starts capturing; throws AudioError (`.permissionDenied`,
    /// `.deviceUnavailable`) when it cannot. `events` hears overruns and failures, for the log.
    public init(settings: AudioSettings, events: @escaping @Sendable (String) -> Void = { _ in }) throws {
        let capture = try ALSACapture(device: settings.device, channels: settings.channels)
        let encoder = try OpusEncoder(channels: settings.channels, bitrate: settings.bitrate)
        preSkip = encoder.preSkip
        coding = Mutex(Coding(encoder: encoder))
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
        state.withLock { $0.origin = origin }
    }

    /// The capture failure that turned the rest of the track to silence, if any.
    public var failure: AudioError? { state.withLock { $0.failed } }

    /// Bytes of the packets coded and not taken yet.
    public var pendingBytes: Int { state.withLock { $0.packetBytes } }

    /// The coded packets that start before `seconds` after the origin. After a failure the
    /// silence up to there is coded here, on the caller's thread (the audio thread is gone).
    public func takePackets(before seconds: Double) -> [AudioSample] {
        if !state.withLock({ $0.running }) { codeSilence(before: seconds) }
        return state.withLock { state in
            let frames = Int((seconds * Double(AudioSettings.sampleRate)).rounded(.up))
            let count = min(state.packets.count, (frames + AudioSettings.frameSize - 1) / AudioSettings.frameSize - state.taken)
            guard count > 0 else { return [] }
            let out = Array(state.packets.prefix(count))
            state.packets.removeFirst(count)
            state.taken += count
            state.packetBytes -= out.reduce(0) { $0 + $1.data.count }
            return out
        }
    }

    /// Stops capture (within about 0.1 s from a stalled device; within `stopTimeout` from one
    /// whose reads wait for it), completes the track with silence to `seconds` and returns the
    /// packets not taken yet that start before it.
    public func finish(at seconds: Double) -> [AudioSample] {
        let (first, left) = state.withLock { state in
            defer { state.stopping = true }
            return (!state.stopping, state.abandoned)
        }
        if !left {
            if stopped.wait(timeout: .now() + Self.stopTimeout) == .success {
                stopped.signal()  // finish may be called again; the thread is gone either way
            } else {
                // A read that waits on the device (alsa-lib's file plugin on a stalled FIFO) must
                // not hold the camera: the audio thread is left to end on its own.
                state.withLock { state in
                    state.abandoned = true
                    state.running = false
                }
                events("audio capture from \(settings.device) did not stop within \(Self.stopTimeout) s (a read waits on the device); "
                       + "silence completes the track")
            }
        }
        if first { coding.withLock { reportGaps(of: $0.timeline, to: seconds) } }
        return takePackets(before: seconds)
    }

    /// The log's account of the track's silence, at its end.
    private func reportGaps(of timeline: AudioTimeline?, to seconds: Double) {
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

    private func run(_ capture: ALSACapture) {
        var buffer = [Int16](repeating: 0, count: AudioSettings.frameSize * settings.channels)
        do {
            var draining = false
            var stoppedAt = Double.infinity
            // Once stopping, what the device already captured is still read (without waiting),
            // so the end of the recording keeps its sound.
            repeat {
                let (stop, gone) = state.withLock { ($0.stopping, $0.abandoned) }
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
            if !state.withLock({ $0.abandoned }) {
                events("\(failure); the recording goes on without sound")
                state.withLock { $0.failed = failure }
            }
        }
        state.withLock { $0.running = false }
        stopped.signal()
    }

    /// Audio thread: holds the sound until the origin is known, then places and codes it.
    private func place(_ samples: ArraySlice<Int16>, at timestamp: Double) throws {
        try coding.withLock { coding in
            guard !state.withLock({ $0.abandoned }) else { return }
            let chunk = (samples: Array(samples), timestamp: timestamp)
            let ready: (origin: Double, chunks: [(samples: [Int16], timestamp: Double)])? = state.withLock { state in
                guard let origin = state.origin else {
                    state.early.append(chunk)
                    // Two seconds before the first video frame is more than any camera takes to start.
                    if state.early.count > 200 { state.early.removeFirst() }
                    return nil
                }
                defer { state.early.removeAll() }
                return (origin, state.early + [chunk])
            }
            guard let ready else { return }
            if coding.timeline == nil { coding.timeline = AudioTimeline(channels: settings.channels, origin: ready.origin) }
            let rate = Double(AudioSettings.sampleRate)
            for chunk in ready.chunks {
                let gap = coding.timeline!.place(chunk.samples[...], capturedAt: chunk.timestamp)
                // A stall long enough to hear is told when it ends; shorter ones only in finish's sum.
                if gap >= AudioSettings.sampleRate / 10 {
                    let from = coding.timeline!.position - chunk.samples.count / settings.channels - gap
                    events("audio capture from \(settings.device) delivered nothing for "
                           + String(cFormat: "%.2f s (from %.2f s of the recording)", Double(gap) / rate, Double(from) / rate)
                           + "; silence fills the gap")
                }
            }
            try codeFrames(&coding)
        }
    }

    /// Holding `coding`: codes the timeline's whole frames into the packet queue.
    private func codeFrames(_ coding: inout Coding) throws {
        while let frame = coding.timeline?.nextFrame() {
            let packet = AudioSample(data: try coding.encoder.encode(frame[...]), duration: UInt32(AudioSettings.frameSize))
            state.withLock { state in
                state.packets.append(packet)
                state.packetBytes += packet.data.count
            }
        }
    }

    /// After the audio thread ended: silence up to `seconds`, coded (a failing encoder leaves the track short).
    private func codeSilence(before seconds: Double) {
        coding.withLock { coding in
            guard let origin = state.withLock({ $0.origin }) else { return }
            if coding.timeline == nil { coding.timeline = AudioTimeline(channels: settings.channels, origin: origin) }
            let frames = Int((seconds * Double(AudioSettings.sampleRate)).rounded(.up))
            let whole = (frames + AudioSettings.frameSize - 1) / AudioSettings.frameSize * AudioSettings.frameSize
            coding.timeline!.fillSilence(to: whole)
            try? codeFrames(&coding)
        }
    }
}
