import CLinux
import FoundationEssentials
import Glibc
import LensImaging
import LensSystem
import Synchronization

/// One live preview: a frame sink that scales and encodes the frames it is offered on its own
/// thread and writes them to a pipe as an MJPEG stream (baseline JFIF frames back to back, each
/// with a COM segment `lensd-preview seq=N pts_us=T`). While its thread is still busy with the
/// last frame — encoding it, or waiting for the reader to take it — new frames are dropped and
/// counted: a reader that stops costs one frame of memory and no encoding.
public final class PreviewStream: FrameSink, Sendable {
    // `frame` is handed between the camera thread and `worker` by `busy`: the camera thread
    // writes it only after winning busy false → true, the worker reads it before setting false
    // (so its lock is never contended). `pipe` writes on the worker only; `nextDue` is the
    // camera thread's.
    public let format: PreviewFormat
    private let worker = SerialWorker(name: "lensd-preview")
    private let busy = Atomic<Bool>(false)
    private let ended = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)
    private let frame = Mutex(FrameCopy())
    private let pipe: PreviewPipe
    private let counters = Mutex(PreviewCounters())
    /// Camera thread: the earliest timestamp the next frame may have, for the fps cap.
    private let nextDue = Mutex<Double?>(nil)
    private let onEnd: @Sendable (PreviewStream, Error?) -> Void
    private let onFrameWritten: (@Sendable (Duration) -> Void)?

    /// The stream and the pipe's read end, which the caller hands to the client and closes.
    /// `onEnd` runs on the preview's thread when the stream ends by itself, with nil when the
    /// reader closed its end, else the write error; the owner then calls close().
    /// `onFrameWritten` gets each written frame's time from being offered (lens-bench's latency).
    public static func open(format: PreviewFormat, onEnd: @escaping @Sendable (PreviewStream, Error?) -> Void,
                            onFrameWritten: (@Sendable (Duration) -> Void)? = nil) throws -> (stream: PreviewStream, readEnd: Int32) {
        let (pipe, readEnd) = try PreviewPipe.make()
        return (PreviewStream(format: format, pipe: pipe, onEnd: onEnd, onFrameWritten: onFrameWritten), readEnd)
    }

    private init(format: PreviewFormat, pipe: PreviewPipe, onEnd: @escaping @Sendable (PreviewStream, Error?) -> Void,
                 onFrameWritten: (@Sendable (Duration) -> Void)?) {
        self.format = format
        self.pipe = pipe
        self.onEnd = onEnd
        self.onFrameWritten = onFrameWritten
        // A write to a pipe whose reader has gone then fails with EPIPE instead of killing lensd.
        worker.submit { _ = lens_block_sigpipe() }
    }

    public var stats: PreviewStats { counters.withLock { $0.stats } }

    /// Camera thread.
    public func offer(_ frame: VideoFrame) {
        guard !ended.load(ordering: .acquiring), isDue(frame.timestamp) else { return }
        guard !busy.exchange(true, ordering: .acquiringAndReleasing) else {
            counters.withLock { $0.dropped() }
            return
        }
        self.frame.withLock { $0.copy(frame) }
        worker.submit { [self] in
            send()
            busy.store(false, ordering: .releasing)
        }
    }

    /// Ends the stream: the reader gets end of file. Waits for a frame being written; idempotent.
    /// Required before the stream is let go: its thread lives until then.
    public func close() {
        ended.store(true, ordering: .releasing)
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        pipe.cancel()
        worker.stop()
        pipe.close()
    }

    /// The fps cap, by the frames' own clock. A quarter interval of slack keeps a camera whose
    /// rate equals the cap from losing frames to jitter; the schedule never runs ahead of the frames.
    private func isDue(_ timestamp: Double) -> Bool {
        let interval = 1 / format.fps
        return nextDue.withLock { nextDue in
            if let due = nextDue, timestamp < due - interval / 4 { return false }
            nextDue = max((nextDue ?? timestamp) + interval, timestamp)
            return true
        }
    }

    /// Worker thread.
    private func send() {
        let frame = self.frame.withLock { $0 }  // shares the bytes; let go before `busy` is cleared
        let jpeg: [UInt8]
        do { jpeg = try encode(frame) } catch {
            // A corrupt camera JPEG: this frame is lost, the stream goes on.
            counters.withLock { $0.dropped() }
            return
        }
        do {
            if try pipe.write(jpeg) { written(since: frame.offeredAt) }
        } catch {
            guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
            onEnd(self, error is PreviewPipe.ReaderGone ? nil : error)
        }
    }

    private func encode(_ frame: FrameCopy) throws -> [UInt8] {
        let rgb = try frame.scaledRGB(width: format.width, height: format.height)
        let jpeg = try rgb.withUnsafeBytes { try JPEGCodec.encode(rgb: $0, width: format.width, height: format.height, quality: format.quality) }
        let pts = Int64((frame.timestamp * 1_000_000).rounded())
        return try JPEGCodec.inserting(comment: "lensd-preview seq=\(frame.sequence) pts_us=\(pts)", into: jpeg)
    }

    private func written(since offered: ContinuousClock.Instant) {
        counters.withLock { $0.written() }
        onFrameWritten?(.now - offered)
    }
}
