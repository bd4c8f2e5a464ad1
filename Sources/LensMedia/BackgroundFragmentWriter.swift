import FoundationEssentials
import Glibc
import Dispatch
import LensSystem
import Synchronization

/// Writes a recording's fragments on a thread of its own, so that a slow disk's fsync (an SD
/// card can take hundreds of milliseconds) delays the file, not the camera: frames keep being
/// taken and coded meanwhile. At most `depth` fragments wait; past that the recorder waits too,
/// and the camera drops frames as on any overloaded system. A write that failed is reported by
/// the next `append` or by `finish`.
final class BackgroundFragmentWriter: @unchecked Sendable {  // `writer` is touched only on `worker`
    private let writer: FragmentedMP4Writer
    private let worker = SerialWorker(name: "lensd-video-writer")
    private let slots: DispatchSemaphore
    private let lock = Lock()
    // Guarded by `lock`.
    private var failure: Error?
    private var writtenSize: Int
    private var writtenDuration = 0.0
    private var pendingBytes = 0
    private var pendingDuration = 0.0
    /// Samples (picture and sound) and fragments handed over so far, written or waiting.
    private var samples = 0
    private var fragments = 0
    private let journalMovieSize: Int

    init(_ writer: FragmentedMP4Writer, depth: Int = 4) {
        self.writer = writer
        writtenSize = writer.size
        journalMovieSize = writer.journalMovieSize
        slots = DispatchSemaphore(value: depth)
    }

    /// The most the final moov can take with `moreSamples` samples in one more fragment than
    /// handed over so far (FragmentedMP4Writer.finalMovieBound).
    func finalMovieBound(addingSamples moreSamples: Int) -> Int {
        let (samples, fragments) = lock.withLock { (self.samples, self.fragments) }
        return FragmentedMP4Writer.finalMovieBound(journalMovieSize: journalMovieSize, samples: samples + moreSamples,
                                                   fragments: fragments + 1)
    }

    /// Bytes in the file plus those of the fragments waiting for it.
    var size: Int { lock.withLock { writtenSize + pendingBytes } }
    var duration: Double { lock.withLock { writtenDuration + pendingDuration } }

    func append(_ samples: [VideoSample], audio: [AudioSample]) throws {
        if let failure = lock.withLock({ failure }) { throw failure }
        slots.wait()
        let bytes = samples.reduce(0) { $0 + $1.data.count } + audio.reduce(0) { $0 + $1.data.count }
        let seconds = Double(samples.reduce(0) { $0 + Int($1.duration) }) / Double(FragmentedMP4Writer.timescale)
        lock.withLock {
            pendingBytes += bytes
            pendingDuration += seconds
            self.samples += samples.count + audio.count
            fragments += 1
        }
        worker.submit { [self] in
            defer { slots.signal() }
            do {
                try writer.appendFragment(samples, audio: audio)
                lock.withLock {
                    writtenSize = writer.size
                    writtenDuration = writer.duration
                }
            } catch {
                lock.withLock { if failure == nil { failure = error } }
            }
            lock.withLock {
                pendingBytes -= bytes
                pendingDuration -= seconds
            }
        }
    }

    /// Waits for every queued fragment, then finalizes the file (see FragmentedMP4Writer.finish).
    /// A write that failed before leaves the fragments written until then to finalize.
    func finish() throws -> FinalizedMP4 {
        let result = LockedResult()
        worker.submit { [self] in result.set(Result { try writer.finish() }) }
        worker.stop()
        return try result.get()
    }
}

/// One result handed from the writer thread to the caller of `finish`.
private final class LockedResult: Sendable {
    private let result = Mutex<Result<FinalizedMP4, Error>?>(nil)

    func set(_ value: Result<FinalizedMP4, Error>) { result.withLock { $0 = value } }
    func get() throws -> FinalizedMP4 {
        guard let result = result.withLock({ $0 }) else { throw VideoRecordingError.noFrames }
        return try result.get()
    }
}
