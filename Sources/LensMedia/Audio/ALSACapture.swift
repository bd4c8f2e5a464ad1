import CALSA
import Glibc
import FoundationEssentials
import LensSystem

/// One ALSA capture PCM in lensd's format (interleaved S16, 48 kHz), read after bounded waits.
/// Opened on the caller's thread, then handed to the audio thread, which alone uses it.
final class ALSACapture {
    let device: String
    let channels: Int
    private let pcm: OpaquePointer
    /// When capture started (CLOCK_MONOTONIC seconds) and the frames read since: a device can
    /// never be ahead of the wall clock by more than its buffer.
    private let opened = ALSACapture.monotonicNow()
    private var delivered = 0

    /// 10 ms periods in a 200 ms buffer: short reads for timestamps, room for a busy machine.
    init(device: String, channels: Int) throws {
        var pcm: OpaquePointer?
        let status = calsa_open_capture(device, UInt32(AudioSettings.sampleRate), UInt32(channels),
                                        UInt(AudioSettings.sampleRate / 100), UInt(AudioSettings.sampleRate / 5), &pcm)
        guard status == 0, let pcm else {
            throw AudioError.opening(device, code: status, reason: String(cString: calsa_strerror(status)))
        }
        self.device = device
        self.channels = channels
        self.pcm = pcm
    }

    deinit { calsa_close(pcm) }

    enum Read {
        /// `frames` frames now in the buffer (0 when none came within the wait); the first was
        /// captured at `timestamp` (CLOCK_MONOTONIC seconds).
        case samples(frames: Int, timestamp: Double)
        /// The buffer overran (or the device was suspended) and capture restarted: frames were lost.
        case overrun
    }

    /// Reads what is there; only when nothing is, waits up to `timeout` seconds for frames first.
    /// `buffer` holds whole frames (its count / channels). Waiting only on an empty buffer
    /// matters: a device whose period is longer than `buffer` (snd-aloop takes the player's) wakes
    /// a waiter once per period, and reading one buffer per wake-up would fall ever further
    /// behind. The bounded wait lets the audio thread stop on a device that stalls.
    func read(into buffer: inout [Int16], timeout: Double) throws -> Read {
        let capacity = UInt(buffer.count / channels)
        var status = buffer.withUnsafeMutableBufferPointer { calsa_read(pcm, $0.baseAddress, capacity) }
        if status == -Int(EAGAIN), calsa_wait(pcm, Int32(timeout * 1000)) >= 0 {
            status = buffer.withUnsafeMutableBufferPointer { calsa_read(pcm, $0.baseAddress, capacity) }
        }
        let now = Self.monotonicNow()
        if status >= 0 {
            delivered += status
            try checkPace(now: now)
            // The newest frame read is as old as the frames still queued behind it.
            let age = Double(status + calsa_delay(pcm)) / Double(AudioSettings.sampleRate)
            return .samples(frames: status, timestamp: now - age)
        }
        let error = Int32(status)
        // Nothing yet, or a signal came first: the caller reads again.
        if [Errno.wouldBlock, .interrupted].contains(Errno(rawValue: -error)) { return .samples(frames: 0, timestamp: now) }
        guard error == -EPIPE || error == -ESTRPIPE else {
            throw AudioError(.failed, "capture from \(device) failed: \(String(cString: calsa_strerror(error)))", code: Int(error))
        }
        let recovered = calsa_recover(pcm, error)
        guard recovered == 0 else {
            throw AudioError(.failed, "capture from \(device) did not recover: \(String(cString: calsa_strerror(recovered)))",
                             code: Int(recovered))
        }
        return .overrun
    }

    /// A device that hands out sound faster than real time is not capturing: alsa-lib's `file`
    /// plugin at the end of its input file returns whole reads of stale samples as fast as they
    /// are asked for, and a reading thread that spins on it would starve the camera's. More than
    /// 1 % (far beyond any crystal's drift) and 1 s (five buffers) ahead of the clock is a failure.
    private func checkPace(now: Double) throws {
        let sound = Double(delivered) / Double(AudioSettings.sampleRate), elapsed = now - opened
        guard sound > elapsed * 1.01 + 1 else { return }
        throw AudioError(.failed, "capture from \(device) delivers sound faster than real time ("
                         + String(cFormat: "%.1f s of sound in %.1f s", sound, elapsed) + "): the device is not capturing")
    }

    static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
