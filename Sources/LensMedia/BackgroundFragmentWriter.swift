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
final class BackgroundFragmentWriter: Sendable {
    /// What was handed over and what of it is written; a write that failed.
    private struct Progress {
        var failure: Error?
        var writtenSize: Int
        var writtenDuration = 0.0
        var pendingBytes = 0
        var pendingDuration = 0.0
        /// Samples (picture and sound) and fragments handed over so far, written or waiting.
        var samples = 0
        var fragments = 0
    }

    private let worker = SerialWorker(name: "lensd-video-writer")
    private let writer: Confined<FragmentedMP4Writer>
    private let slots: DispatchSemaphore
    private let progress: Mutex<Progress>
    private let journalMovieSize: Int

    init(_ writer: FragmentedMP4Writer, depth: Int = 4) {
        progress = Mutex(Progress(writtenSize: writer.size))
        journalMovieSize = writer.journalMovieSize
        slots = DispatchSemaphore(value: depth)
        self.writer = Confined(writer, on: worker)
    }

    /// The most the final moov can take with `moreSamples` samples in one more fragment than
    /// handed over so far (FragmentedMP4Writer.finalMovieBound).
    func finalMovieBound(addingSamples moreSamples: Int) -> Int {
        let (samples, fragments) = progress.withLock { ($0.samples, $0.fragments) }
        return FragmentedMP4Writer.finalMovieBound(journalMovieSize: journalMovieSize, samples: samples + moreSamples,
                                                   fragments: fragments + 1)
    }

    /// Bytes in the file plus those of the fragments waiting for it.
    var size: Int { progress.withLock { $0.writtenSize + $0.pendingBytes } }
    var duration: Double { progress.withLock { $0.writtenDuration + $0.pendingDuration } }

    func append(_ samples: [VideoSample], audio: [AudioSample]) throws {
        if let failure = progress.withLock({ $0.failure }) { throw failure }
        slots.wait()
        let bytes = samples.reduce(0) { $0 + $1.data.count } + audio.reduce(0) { $0 + $1.data.count }
        let seconds = Double(samples.reduce(0) { $0 + Int($1.duration) }) / Double(FragmentedMP4Writer.timescale)
        progress.withLock {
            $0.pendingBytes += bytes
            $0.pendingDuration += seconds
            $0.samples += samples.count + audio.count
            $0.fragments += 1
        }
        writer.submit { [self] writer in
            defer { slots.signal() }
            do {
                try writer.appendFragment(samples, audio: audio)
                let (size, duration) = (writer.size, writer.duration)
                progress.withLock {
                    $0.writtenSize = size
                    $0.writtenDuration = duration
                }
            } catch {
                progress.withLock { if $0.failure == nil { $0.failure = error } }
            }
            progress.withLock {
                $0.pendingBytes -= bytes
                $0.pendingDuration -= seconds
            }
        }
    }

    /// Waits for every queued fragment, then finalizes the file (see FragmentedMP4Writer.finish).
    /// A write that failed before leaves the fragments written until then to finalize.
    func finish() throws -> FinalizedMP4 {
        let result = LockedResult()
        writer.submit { writer in result.set(Result { try writer.finish() }) }
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
