import FoundationEssentials
import Glibc
import LensClient
import LensSystem

/// Copies a preview's frames from its descriptor to an output, whole frames only, until the
/// request is met, a stop signal comes, the output's reader leaves, or the preview ends.
struct PreviewStreamer {
    let preview: LensPreview
    let request: PreviewRequest
    let stop: StopSignals

    /// Frames written, and whether the run ended as asked — not by lensd ending the preview.
    func copy(to output: borrowing FileDescriptor) throws -> (frames: Int, complete: Bool) {
        let fd = preview.descriptor.rawValue
        var splitter = MJPEGSplitter()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var frames = 0
        let end = request.duration.map { ContinuousClock.now + .milliseconds(Int(min($0, 1e9) * 1000)) }
        var lastFrame = ContinuousClock.now
        while !stop.stopRequested {
            if let end, ContinuousClock.now >= end { return (frames, true) }
            // Wakes every 100 ms to look at the stop signals and the deadline.
            let readable = (try? FileDescriptor.borrowing(fd) { (input) throws(SystemError) in try input.waitUntilReadable(milliseconds: 100) }) ?? true
            guard readable else {
                if ContinuousClock.now - lastFrame > PreviewCommand.frameTimeout {
                    throw CommandFailure(.timeout, "no preview frame within \(PreviewCommand.frameTimeout)")
                }
                continue
            }
            // The preview's descriptor stays its LensPreview's.
            let count = (try? FileDescriptor.borrowing(fd) { (input) throws(SystemError) in
                try chunk.withUnsafeMutableBufferPointer { (buffer) throws(SystemError) in try input.read(into: UnsafeMutableRawBufferPointer(buffer)) }
            }) ?? 0
            guard count > 0 else {
                Output.error("the preview ended after \(frames) frames (the camera claim ended, or lensd stopped)")
                return (frames, false)
            }
            let complete: [[UInt8]]
            do { complete = try splitter.append(chunk[..<count]) } catch {
                throw CommandFailure(.failed, "the preview stream is malformed: \(error)")
            }
            for frame in complete {
                guard try write(frame, to: output) else { return (frames, true) }
                frames += 1
                lastFrame = .now
                if frames == request.frames { return (frames, true) }
            }
        }
        return (frames, true)
    }

    /// false when the output's reader went away (EPIPE): the stream's end, as the reader chose.
    private func write(_ frame: [UInt8], to output: borrowing FileDescriptor) throws -> Bool {
        do {
            try output.writeAll(frame)
        } catch where error.errno == .brokenPipe {
            return false
        } catch {
            throw CommandFailure(.failed, "cannot write the preview: \(error.errno)")
        }
        return true
    }
}
