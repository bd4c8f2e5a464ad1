import FoundationEssentials
import Glibc
import LensBus
import LensContract
import LensSystem
import Synchronization

/// The read end of a preview's pipe, for apps that hand the stream to another reader —
/// GStreamer's `fdsrc fd=N ! jpegparse ! jpegdec`, or FFmpeg's `-f mjpeg -i pipe:N`. It belongs
/// to its LensPreview and is closed with it; `dup` it to keep it longer.
public struct LensPreviewDescriptor: Sendable, Equatable {
    // A raw number on purpose: it is for other processes and C libraries, never owned by the holder.
    public let rawValue: Int32
}

/// What a preview streams, as lensd chose it: the picture fitted into the asked-for box.
public struct LensPreviewFormat: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let fps: Double
    /// "image/jpeg" and "mjpeg": baseline JFIF frames back to back.
    public let mime: String
    public let framing: String
}

/// A live preview of the camera (`LensCamera.openPreview`): its frames as an AsyncSequence, or
/// its raw descriptor — read one or the other. The preview ends when this object is released
/// (or the capture session ends). Preview frames are never signed; photos and videos are made
/// from the camera's full frames.
public final class LensPreview: AsyncSequence, Sendable {
    public typealias Element = LensPreviewFrame
    public typealias AsyncIterator = AsyncThrowingStream<LensPreviewFrame, Error>.Iterator

    public let format: LensPreviewFormat
    public var descriptor: LensPreviewDescriptor { LensPreviewDescriptor(rawValue: reader.fd) }
    private let camera: LensCamera
    private let reader: PipeReader

    init(camera: LensCamera, fd: Int32, format: LensPreviewFormat) {
        self.camera = camera
        self.format = format
        reader = PipeReader(fd: fd)
    }

    /// Closing the read end is what ends the preview (lensd sees it at its next frame), rather
    /// than ClosePreview, which would end a newer preview that replaced this one.
    deinit { reader.release() }

    /// The frames until the preview ends; throws when the stream is not a preview stream. One
    /// iteration per preview: the frames are read off the pipe once.
    public func makeAsyncIterator() -> AsyncIterator {
        reader.frames().makeAsyncIterator()
    }
}

/// Reads the pipe on its own thread and hands out whole frames. The fd is closed by whichever
/// comes last: the owner letting go, or the thread, which looks after every read whether the
/// owner let go (closing an fd under a blocked read would not wake it).
private final class PipeReader: Sendable {
    let fd: Int32
    private struct State {
        var reading = false
        var released = false
    }
    private let state = Mutex(State())

    init(fd: Int32) { self.fd = fd }

    func frames() -> AsyncThrowingStream<LensPreviewFrame, Error> {
        let (stream, continuation) = AsyncThrowingStream<LensPreviewFrame, Error>.makeStream(bufferingPolicy: .bufferingNewest(4))
        let starts = state.withLock { state in
            guard !state.reading, !state.released else { return false }
            state.reading = true
            return true
        }
        guard starts else {
            continuation.finish(throwing: LensClientError.internal("a preview's frames can be read once"))
            return stream
        }
        Threads.start(named: "lensclient-preview") { [self] in
            continuation.finish(throwing: readFrames { continuation.yield($0) })
            let close = state.withLock { state in
                state.reading = false
                return state.released
            }
            if close { try? FileDescriptor(adopting: fd).close() }
        }
        return stream
    }

    func release() {
        let close = state.withLock { state in
            state.released = true
            return !state.reading
        }
        if close { try? FileDescriptor(adopting: fd).close() }
    }

    /// Until the end of the stream (nil) or an error.
    private func readFrames(_ yield: (LensPreviewFrame) -> Void) -> Error? {
        var splitter = MJPEGSplitter()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while !state.withLock({ $0.released }) {
            let count: Int
            do {
                // The descriptor stays this reader's: closed as described above.
                count = try FileDescriptor.borrowing(fd) { (pipe) throws(SystemError) in
                    try chunk.withUnsafeMutableBufferPointer { (buffer) throws(SystemError) in try pipe.read(into: UnsafeMutableRawBufferPointer(buffer)) }
                }
            } catch {
                return LensClientError.disconnected("reading the preview failed: \(error)")
            }
            if count == 0 { return nil }
            do {
                for jpeg in try splitter.append(chunk[..<count]) { yield(try LensPreviewFrame(jpeg: jpeg)) }
            } catch {
                return LensClientError.internal("the preview stream is malformed: \(error)")
            }
        }
        return nil
    }
}

extension LensCamera {
    /// Opens a live preview of the claimed camera (startCaptureSession first, else `.notStarted`):
    /// the picture fitted into `size` (aspect kept; lensd's default 640×480), at most `fps`
    /// frames a second (default the camera's rate, at most 30), JPEG `quality` (default 75).
    /// A second preview replaces the first, whose frames then end.
    public func openPreview(size: (width: Int, height: Int)? = nil, fps: Double? = nil,
                            quality: Int? = nil) throws(LensClientError) -> LensPreview {
        var options: [String: BusValue] = [:]
        if let size {
            guard let width = UInt32(exactly: size.width), let height = UInt32(exactly: size.height) else {
                throw .invalidArgument("the preview size \(size.width)x\(size.height) is not a pair of positive numbers")
            }
            options[Lens1.PreviewOption.width.rawValue] = .uint32(width)
            options[Lens1.PreviewOption.height.rawValue] = .uint32(height)
        }
        if let fps { options[Lens1.PreviewOption.fps.rawValue] = .double(fps) }
        if let quality {
            guard let q = UInt32(exactly: quality) else { throw .invalidArgument("the JPEG quality \(quality) is not in 1...100") }
            options[Lens1.PreviewOption.quality.rawValue] = .uint32(q)
        }
        let reply = try sessionCall("OpenPreview", [.vardict(options)])
        guard reply.count == 2, let fd = reply[0].fdValue else { throw .internal("OpenPreview answered \(reply)") }
        do {
            let fields = try Fields(reply[1], "OpenPreview format")
            let format = LensPreviewFormat(width: Int(try fields.uint32("width")), height: Int(try fields.uint32("height")),
                                           fps: try fields.double("fps"), mime: try fields.string("mime"),
                                           framing: try fields.string("framing"))
            return LensPreview(camera: self, fd: fd, format: format)
        } catch {
            try? FileDescriptor(adopting: fd).close()
            throw error
        }
    }

    /// Whether this session has a preview open (lensd's PreviewActive).
    public var isPreviewActive: Bool {
        get throws(LensClientError) {
            try Reply.single([try sessionProperty("PreviewActive")], "PreviewActive") { $0.boolValue }
        }
    }
}
