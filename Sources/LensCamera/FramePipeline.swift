import Synchronization

/// Something that wants the camera's frames while a session holds the claim: the preview, and
/// later the face detector. `offer` runs on the camera thread and must return at once — a sink
/// copies what it needs and works on its own thread, skipping frames while it is still busy —
/// so that a slow sink never delays the camera, the recording or the other sinks.
public protocol FrameSink: AnyObject, Sendable {
    func offer(_ frame: VideoFrame)
}

/// One source, several sinks: each frame the camera thread pulls while sinks are attached is
/// offered to every one of them. Photos and recordings take their frames at full size as they
/// always did; the sinks only ever see copies of what passed by.
public final class FramePipeline: Sendable {
    private let sinks = Mutex<[any FrameSink]>([])

    public init() {}

    /// Any thread.
    public func attach(_ sink: any FrameSink) {
        sinks.withLock { $0.append(sink) }
    }

    /// Any thread. A frame being offered right now may still reach the sink.
    public func detach(_ sink: any FrameSink) {
        sinks.withLock { $0.removeAll { $0 === sink } }
    }

    public var isEmpty: Bool { sinks.withLock { $0.isEmpty } }

    /// Camera thread.
    public func deliver(_ frame: VideoFrame) {
        for sink in sinks.withLock({ $0 }) { sink.offer(frame) }
    }
}
