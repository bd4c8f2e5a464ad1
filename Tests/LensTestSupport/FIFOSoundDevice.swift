import Foundation
import Glibc

// An ALSA capture device for a machine without a sound card or kernel modules, built from
// alsa-lib's own plugins, and what was measured about it (alsa-lib 1.2.8, Debian bookworm):
//
// - `type null` captures zeros as fast as they are asked for: its avail is always the whole
//   buffer and its poll descriptor (/dev/full) is always readable. 10 ms periods, 200 ms buffer
//   (lensd's): ~1.8·10⁹ frames in a second of wall time. Not paced.
// - `type file` over that null slave, with `infile`, replaces each read's samples with the next
//   bytes of infile. A regular file: just as unpaced. A FIFO: snd_pcm_readi blocks in read(2)
//   on it (the plugin opens infile blocking, whatever SND_PCM_NONBLOCK says), so the writer
//   paces capture. Written 960 frames every 20 ms (deadline-scheduled, CLOCK_MONOTONIC), a
//   reader taking 960 frames per read got 48 000 frames per second of wall time (49 920 after
//   the first 1.02 s, 144 960 in 4.0 s with a 1 s pause of the writer, during which the reader
//   waited). Three catches, all of the plugin:
//   * it returns as many frames as the slave gave, however few bytes read(2) brought: a writer
//     whose writes do not split into the reader's requests (ffmpeg -re writes 1024-sample
//     frames) is counted ~1.9× (90 000 frames/s) with stale samples in the rest. So the writer
//     here writes whole 960-frame chunks (lensd's read size, AudioSettings.frameSize; any
//     multiple would do), atomically (1920 bytes < PIPE_BUF);
//   * at end of file (the writer gone) it goes on returning full reads of the stale buffer,
//     unpaced, and never an error: the device "fails" by running ahead of the clock, which lensd
//     (ALSACapture) now takes for the failure it is;
//   * opening the PCM opens the FIFO for reading, which blocks until a writer has it open: the
//     writer opens non-blocking whenever a reader is there (every chunk while none is) and
//     reopens after EPIPE, so lensd's open (also its capture-condition probe every 5 s) waits
//     at most one chunk, and a closed reader costs the writer nothing but a dropped chunk.
// - Timestamps stay honest: null reports no delay, so lensd stamps a read chunk
//   now − 20 ms; the writer writes each chunk when its 20 ms are over (as a device's period
//   completes), so the stamp is the chunk's writer time plus the wake-up latency of both threads.
//   A chunk that waited in the pipe behind another is stamped late and AudioTimeline drops the
//   overlap (or fills a gap) rather than shifting the track: sync stays within its 10 ms tolerance
//   plus that latency. When the writer pauses, lensd's read waits in read(2) for the pause (no
//   overrun: null never overruns), and the next chunk comes stamped after the gap. A read
//   that waits is what no sound card does (lensd opens PCMs non-blocking): it held lensd's
//   StopVideoCapture for as long as the writer wrote (draining took every full read) or paused,
//   until Microphone stopped draining at the stop and stopped waiting after 0.5 s.
// - alsa-lib reads the PCM definition from $ALSA_CONFIG_PATH (the file below, which includes
//   the system's alsa.conf for `null`); setpriv keeps lensd's environment, so user lensd sees it.
//   No package beyond libasound2 is needed.

/// A mono 48 kHz S16 capture device `pcm` whose sound this test writes in real time into a FIFO:
/// bursts of tone, 200 ms at the start of each second of the writer's clock, burst k at
/// 600 + 100·(k mod 10) Hz, so that each burst in a recording says which second it was written
/// in. `pause(for:)` stalls the device (those chunks are never written, like sound lost in an
/// xrun); `fail()` removes and closes it (end of file: the device fails).
public final class FIFOSoundDevice: @unchecked Sendable {  // mutable state is guarded by `lock`
    public static let rate = 48_000
    /// Frames per write: lensd's read size (see above).
    public static let chunk = 960
    public static let burstSeconds = 0.2
    public static func burstFrequency(_ index: Int) -> Double { 600 + 100 * Double(index % 10) }

    public let pcm: String
    public let fifo: String
    public let configuration: String
    /// For lensd's environment.
    public var environment: [String: String] { ["ALSA_CONFIG_PATH": configuration] }

    private let lock = NSLock()
    private var pausedFrom = 0.0, pausedUntil = 0.0, stalled = false
    private var failed = false
    private var finished = false
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)
    /// The writer's time 0 (CLOCK_MONOTONIC seconds), set when it starts.
    public private(set) var origin = 0.0
    private var chunksWritten = 0, chunksDropped = 0

    /// `directory` must be reachable by lensd's user.
    public init(directory: URL, pcm: String = "lensd_test_fifo") throws {
        self.pcm = pcm
        fifo = directory.appendingPathComponent("\(pcm).fifo").path
        configuration = directory.appendingPathComponent("\(pcm).asoundrc").path
        guard mkfifo(fifo, 0o644) == 0 else { throw TestToolError("mkfifo \(fifo): \(String(cString: strerror(errno)))") }
        chmod(fifo, 0o644)
        let text = """
            </usr/share/alsa/alsa.conf>
            pcm.\(pcm) {
                type file
                slave.pcm "null"
                file "/dev/null"
                infile "\(fifo)"
                format "raw"
            }

            """
        try text.write(toFile: configuration, atomically: true, encoding: .utf8)
        chmod(configuration, 0o644)
    }

    deinit { stop() }

    public static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Starts writing (the writer's clock starts now).
    public func start() {
        origin = Self.monotonicNow()
        let thread = Thread { [self] in write() }
        thread.name = "fifo-sound-device"
        self.thread = thread
        thread.start()
    }

    /// The device stalls: nothing is written for `seconds` from the next middle of a second of
    /// the writer's clock (so no burst is cut); the writer keeps its schedule. Returns when the
    /// stall starts and ends on the writer's clock.
    @discardableResult
    public func pause(for seconds: Double) -> (from: Double, to: Double) {
        let from = (Self.monotonicNow() - origin - 0.5).rounded(.up) + 0.5
        lock.withLock {
            pausedFrom = origin + from
            pausedUntil = origin + from + seconds
        }
        return (from, from + seconds)
    }

    /// The device fails: the FIFO is removed and closed, so the reader reads end of file and
    /// cannot open it again.
    public func fail() {
        lock.withLock { failed = true }
    }

    /// Stops the writer and waits for it.
    public func stop() {
        guard thread != nil else { return }
        thread = nil
        lock.withLock { finished = true }
        done.wait()  // the writer notices within a chunk (or has ended after `fail`)
    }

    /// Whether the device is in a stall: the chunk last due was held back by `pause`.
    public var isStalled: Bool { lock.withLock { stalled } }

    /// Chunks written and chunks dropped (no reader, a full pipe, a pause).
    public var counts: (written: Int, dropped: Int) { lock.withLock { (chunksWritten, chunksDropped) } }

    private func write() {
        // A write to a FIFO whose reader went away is EPIPE here, not the test's death.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        var fd: Int32 = -1
        var samples = [Int16](repeating: 0, count: Self.chunk)
        var index = 0
        while true {
            // Chunk `index` holds the writer's sound of [index, index + 1) · 20 ms and is
            // written when that time is over, as a device completes a period.
            let due = origin + Double((index + 1) * Self.chunk) / Double(Self.rate)
            var deadline = timespec(tv_sec: Int(due), tv_nsec: Int((due - due.rounded(.down)) * 1e9))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
            let (stop, fail, paused) = lock.withLock {
                stalled = due > pausedFrom && due <= pausedUntil
                return (finished, failed, stalled)
            }
            if stop || fail { break }
            defer { index += 1 }
            if paused { count(written: false); continue }
            if fd < 0 {
                fd = open(fifo, O_WRONLY | O_NONBLOCK)  // ENXIO: no reader yet
                if fd < 0 { count(written: false); continue }
            }
            Self.render(chunk: index, into: &samples)
            let n = samples.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EPIPE {
                close(fd)
                fd = -1
            }
            count(written: n == Self.chunk * 2)
        }
        // A failed device is gone, as an unplugged one: opening it again (lensd probes the
        // device every 5 s while not recording) fails at once instead of waiting for a writer.
        if lock.withLock({ failed }) { unlink(fifo) }
        if fd >= 0 { close(fd) }
        done.signal()
    }

    private func count(written: Bool) {
        lock.withLock { if written { chunksWritten += 1 } else { chunksDropped += 1 } }
    }

    private static func render(chunk index: Int, into samples: inout [Int16]) {
        for i in 0..<chunk {
            let frame = index * chunk + i
            let second = frame / rate, within = Double(frame % rate) / Double(rate)
            guard within < burstSeconds else { samples[i] = 0; continue }
            samples[i] = Int16(9000 * sin(2 * Double.pi * burstFrequency(second) * within))
        }
    }
}

extension AudioProbe {
    /// The tone bursts of a FIFOSoundDevice in this sound: where each starts (seconds into the
    /// decoded track, to the millisecond) and which second of the writer's clock (mod 10) its
    /// frequency says it was written in. A burst counts when its first 0.1 s is there.
    public func bursts() -> [(time: Double, index: Int)] {
        let window = 48, rate = Double(FIFOSoundDevice.rate)  // 1 ms
        var found: [(time: Double, index: Int)] = []
        // A burst cut by the start of the track does not count: its start is not there.
        var quietWindows = 0, start = 0
        while start + window <= samples.count {
            let loud = samples[start..<(start + window)].contains { abs(Int($0)) > 3000 }
            if loud, quietWindows >= 100, start + 4800 <= samples.count {
                let body = samples[start..<(start + 4800)].map { Double($0) }
                let powers = (0..<10).map { Self.goertzel(body, frequency: FIFOSoundDevice.burstFrequency($0)) }
                let best = powers.indices.max { powers[$0] < powers[$1] }!
                found.append((Double(start) / rate, best))
            }
            quietWindows = loud ? 0 : quietWindows + 1
            start += window
        }
        return found
    }

    /// How far each burst lies from where the writer's clock puts it relative to the first
    /// burst (seconds; the writer's seconds between two bursts are told by their frequencies,
    /// so a lost burst or a stall still counts whole seconds): 0 when the sound never shifted.
    public static func burstDrift(_ bursts: [(time: Double, index: Int)]) -> [Double] {
        guard let first = bursts.first else { return [] }
        var seconds = 0, previous = first
        return bursts.map { burst in
            if burst.time != previous.time {
                // Whole seconds since the previous burst: from its frequency, and from the time
                // between them for the tens the frequency cannot tell.
                let elapsed = burst.time - previous.time
                let tens = Int(((elapsed - Double((burst.index - previous.index + 10) % 10)) / 10).rounded())
                seconds += (burst.index - previous.index + 10) % 10 + 10 * tens
                previous = burst
            }
            return burst.time - first.time - Double(seconds)
        }
    }
}
