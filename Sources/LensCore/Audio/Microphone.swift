import Foundation
import Synchronization

/// A recording's sound: captures from an ALSA device on a thread of its own, places it on the
/// video's clock (AudioTimeline) and codes it to Opus packets that the recorder takes fragment
/// by fragment. The camera thread only ever takes a lock to move finished packets, so sound can
/// never hold up the picture. When capture fails mid-recording the failure is reported once
/// (`events`) and the track goes on as silence, so the recording keeps its picture and its sync.
public final class Microphone: Sendable {
    public let settings: AudioSettings
    /// Samples (48 kHz) the decoder drops at the start (Opus pre-skip).
    public let preSkip: Int

    private let stopped = DispatchSemaphore(value: 0)
    private let events: @Sendable (String) -> Void
    private let state = Mutex(State())
    /// Used by the audio thread while it runs, by the caller of `takePackets`/`finish` after: its
    /// lock is never contended, so the camera thread never waits for coding.
    private let coding: Mutex<Coding>

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
        let thread = Thread { [self] in run(capture) }
        thread.name = "lensd-audio"
        thread.start()
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
        let isRunning = state.withLock { $0.running }
        if !isRunning { codeSilence(before: seconds) }
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

    /// Stops capture (within about 0.1 s, even from a stalled device), completes the track with
    /// silence to `seconds` and returns the packets not taken yet that start before it.
    public func finish(at seconds: Double) -> [AudioSample] {
        let first = state.withLock { state in
            defer { state.stopping = true }
            return !state.stopping
        }
        stopped.wait()
        stopped.signal()  // finish may be called again; the thread is gone either way
        if first, let timeline = coding.withLock({ $0.timeline.map { (silence: $0.silence, position: $0.position) } }) {
            let rate = Double(AudioSettings.sampleRate)
            if timeline.silence > 0 {
                events(String(format: "%.2f s of silence stand for sound the device did not deliver (stalls, overruns)",
                              Double(timeline.silence) / rate))
            }
            // Sound that was captured but never reached the timeline (a starved audio thread).
            if Double(timeline.position) / rate < seconds - 0.1 {
                events(String(format: "the sound reached %.2f s of the picture's %.2f s; silence completes it",
                              Double(timeline.position) / rate, seconds))
            }
        }
        return takePackets(before: seconds)
    }

    /// Stops capture without a track to complete (the recording never started).
    public func stop() {
        _ = finish(at: 0)
    }

    private func run(_ capture: ALSACapture) {
        var buffer = [Int16](repeating: 0, count: AudioSettings.frameSize * settings.channels)
        do {
            var draining = false
            // Once stopping, what the device already captured is still read (without waiting),
            // so the end of the recording keeps its sound.
            repeat {
                draining = state.withLock { $0.stopping }
                switch try capture.read(into: &buffer, timeout: draining ? 0 : 0.1) {
                case .overrun:
                    events("audio capture from \(settings.device) overran; the lost sound is filled with silence")
                case .samples(let frames, let timestamp):
                    if frames > 0 { try place(buffer[..<(frames * settings.channels)], at: timestamp) }
                    if draining && frames == buffer.count / settings.channels { draining = false }  // more may wait
                }
            } while !draining
        } catch {
            let failure = error as? AudioError ?? AudioError(.failed, "\(error)")
            events("\(failure); the recording goes on without sound")
            state.withLock { $0.failed = failure }
        }
        state.withLock { $0.running = false }
        stopped.signal()
    }

    /// Audio thread: holds the sound until the origin is known, then places and codes it.
    private func place(_ samples: ArraySlice<Int16>, at timestamp: Double) throws {
        let ready: (origin: Double, chunks: [(samples: [Int16], timestamp: Double)])? = state.withLock { state in
            guard let origin = state.origin else {
                state.early.append((Array(samples), timestamp))
                // Two seconds before the first video frame is more than any camera takes to start.
                if state.early.count > 200 { state.early.removeFirst() }
                return nil
            }
            defer { state.early.removeAll() }
            return (origin, state.early + [(Array(samples), timestamp)])
        }
        guard let ready else { return }
        try coding.withLock { coding in
            if coding.timeline == nil { coding.timeline = AudioTimeline(channels: settings.channels, origin: ready.origin) }
            for chunk in ready.chunks { coding.timeline!.place(chunk.samples[...], capturedAt: chunk.timestamp) }
            try codeFrames(&coding)
        }
    }

    /// Whoever owns the timeline: codes its whole frames into the packet queue.
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
        guard let origin = state.withLock({ $0.origin }) else { return }
        let frames = Int((seconds * Double(AudioSettings.sampleRate)).rounded(.up))
        let whole = (frames + AudioSettings.frameSize - 1) / AudioSettings.frameSize * AudioSettings.frameSize
        coding.withLock { coding in
            if coding.timeline == nil { coding.timeline = AudioTimeline(channels: settings.channels, origin: origin) }
            coding.timeline!.fillSilence(to: whole)
            try? codeFrames(&coding)
        }
    }
}
