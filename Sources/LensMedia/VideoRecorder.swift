import C2PA
import FoundationEssentials
import LensCamera
import LensImaging

/// How a recording's frames are coded: H.264 through OpenH264 (the default: ~2.5 Mb/s at 720p),
/// or the camera's JPEGs kept as they are (no encoder, ~10× the bytes, little CPU).
public enum VideoEncoding: Sendable, Equatable {
    /// `bitrate` nil: scaled from 2.5 Mb/s at 720p by pixel count.
    case h264(bitrate: Int?)
    /// `quality` applies to frames that arrive raw; camera JPEGs pass through untouched.
    case mjpeg(quality: Int)
}

/// Frames in, a crash-safe MP4 journal out: each frame is coded, and each GOP (H.264) or second
/// of frames (MJPEG) becomes one fsynced fragment, written behind the camera's back
/// (BackgroundFragmentWriter), so a crash loses at most the open one and a few queued ones. Sample
/// durations come from the frames' own timestamps: a dropped frame shows as a longer sample, not
/// as time running fast. With a microphone, each fragment also carries the sound of its time
/// (see Microphone). One owner thread (the camera's).
public final class VideoRecorder {
    public let path: String
    /// A small JPEG of the first frame; nil until one arrived.
    public private(set) var thumbnail: [UInt8]?

    private let encoding: VideoEncoding
    private let frameRate: Double
    private let creationTime: Date
    private let metadata: CaptureMetadata?
    private var writer: BackgroundFragmentWriter?
    private var encoder: H264Encoder?
    private var image: I420Image?
    /// The open fragment's samples, durations known.
    private var fragment: [VideoSample] = []
    /// The newest coded frame: its duration is known only when the next frame's time is.
    private var held: (sample: VideoSample, timestamp: Double)?
    private var firstTimestamp: Double?
    /// Time 0 of the sound on CLOCK_MONOTONIC, once the file is open (see `monotonicTime(of:)`).
    public private(set) var origin: Double?
    private let microphone: Microphone?
    /// Video ticks in the fragments handed to the writer: where their sound must reach.
    private var flushedTicks: UInt64 = 0

    /// Nothing is created on disk until the first frame is coded (an H.264 track needs the
    /// encoder's parameter sets in its header). A `microphone` (already capturing) adds a sound
    /// track whose time 0 is the first written frame's timestamp (same monotonic clock).
    /// `metadata`: what the file's QuickTime metadata says (see `FragmentedMP4Writer.init`).
    public init(path: String, encoding: VideoEncoding, frameRate: Double, creationTime: Date, metadata: CaptureMetadata? = nil,
                microphone: Microphone? = nil) {
        self.path = path
        self.metadata = metadata
        self.encoding = encoding
        self.frameRate = frameRate > 0 && frameRate.isFinite ? frameRate : 30
        self.creationTime = creationTime
        self.microphone = microphone
    }

    deinit {
        _ = microphone?.finish(at: 0)  // stops its thread if the recording never finished
    }

    /// Whether the file has a sound track.
    public var hasAudio: Bool { microphone != nil }

    /// The capture failure that made the rest of the sound silence, if one came.
    public var audioFailure: AudioError? { microphone?.failure }

    /// Seconds recorded, including the frames not yet in a fragment.
    public var duration: Double {
        let open = fragment.reduce(0) { $0 + Int($1.duration) } + (held == nil ? 0 : Int(nominalDuration))
        return (writer?.duration ?? 0) + Double(open) / Double(FragmentedMP4Writer.timescale)
    }

    /// Bytes on disk plus the open fragment's samples.
    public var size: Int {
        (writer?.size ?? 0) + fragment.reduce(0) { $0 + $1.data.count } + (held?.sample.data.count ?? 0)
            + (microphone?.pendingBytes ?? 0)
    }

    /// The most the finished file can be if the recording stops before its next frame, or after
    /// it (`withNextFrame`, taken to be as large as the largest so far, with a frame's worth of
    /// sound): a size limit stops the recording while what it keeps fits (see `finalMovieBound`).
    public func projectedSize(withNextFrame: Bool) -> Int {
        guard let writer else { return size }
        let pendingVideo = fragment.count + (held == nil ? 0 : 1) + (withNextFrame ? 1 : 0)
        // Opus packets are 20 ms: those of the open fragment, and one more second's worth.
        let openSeconds = max(duration - writer.duration, 0) + 1
        let pendingAudio = microphone == nil ? 0 : Int(openSeconds * 50)
        let nextFrame = withNextFrame ? largestSample + (microphone == nil ? 0 : 1024) : 0
        return size + nextFrame + writer.finalMovieBound(addingSamples: pendingVideo + pendingAudio)
    }

    /// The largest coded frame so far (a key frame, usually): what the next one may take.
    private var largestSample = 0

    public func append(_ frame: VideoFrame) throws {
        if thumbnail == nil { thumbnail = try VideoThumbnail.make(from: frame) }
        guard let coded = try code(frame) else { return }
        let startsFragment: Bool
        switch encoding {
        case .h264: startsFragment = coded.isSync
        case .mjpeg: startsFragment = fragment.count + 1 >= Int(frameRate.rounded(.up))
        }
        if let held {
            fragment.append(VideoSample(data: held.sample.data, duration: ticks(from: held.timestamp, to: frame.timestamp),
                                        isSync: held.sample.isSync))
        }
        if startsFragment { try flush() }
        held = (coded, frame.timestamp)
        largestSample = max(largestSample, coded.data.count)
    }

    /// Writes the last fragment and finalizes the file in place (see FragmentedMP4Writer). When
    /// that last write fails (a full disk), what was written before is still finalized and
    /// `lastFragmentFailure` says what was lost.
    public func finish() throws -> FinalizedMP4 {
        if let held { fragment.append(VideoSample(data: held.sample.data, duration: nominalDuration, isSync: held.sample.isSync)) }
        held = nil
        let end = flushedTicks + fragment.reduce(0) { $0 + UInt64($1.duration) }
        let sound = microphone?.finish(at: Double(end) / Double(FragmentedMP4Writer.timescale)) ?? []
        do { try flush(sound: sound) } catch { lastFragmentFailure = error }
        guard let writer else { throw VideoRecordingError.noFrames }
        return try writer.finish()
    }

    public private(set) var lastFragmentFailure: Error?

    private var nominalDuration: UInt32 { UInt32((Double(FragmentedMP4Writer.timescale) / frameRate).rounded()) }

    private func ticks(from start: Double, to end: Double) -> UInt32 {
        let ticks = ((end - start) * Double(FragmentedMP4Writer.timescale)).rounded()
        return ticks >= 1 && ticks < Double(UInt32.max) ? UInt32(ticks) : nominalDuration
    }

    /// Hands the open fragment to the writer with the sound coded up to its end (`sound` at the
    /// end of the recording, when the microphone has already stopped).
    private func flush(sound: [AudioSample]? = nil) throws {
        guard !fragment.isEmpty, let writer else { return }
        let end = flushedTicks + fragment.reduce(0) { $0 + UInt64($1.duration) }
        let audio = sound ?? microphone?.takePackets(before: Double(end) / Double(FragmentedMP4Writer.timescale)) ?? []
        try writer.append(fragment, audio: audio)
        flushedTicks = end
        fragment.removeAll(keepingCapacity: true)
    }

    /// The frame as an MP4 sample; opens the file with the first one.
    private func code(_ frame: VideoFrame) throws -> VideoSample? {
        let width = frame.width & ~1, height = frame.height & ~1
        switch encoding {
        case .mjpeg(let quality):
            let jpeg: [UInt8]
            switch frame.pixels {
            case .jpeg(let bytes): jpeg = Array(bytes)
            case .rgb(let rgb): jpeg = try JPEGCodec.encode(rgb: rgb, width: frame.width, height: frame.height, quality: quality)
            }
            if writer == nil { try open(VideoTrack(format: .jpeg, width: frame.width, height: frame.height), at: frame.timestamp) }
            return VideoSample(data: jpeg, duration: nominalDuration, isSync: true)
        case .h264(let bitrate):
            guard width >= 16, height >= 16 else { throw VideoRecordingError.frameTooSmall(frame.width, frame.height) }
            if image == nil { image = I420Image(width: width, height: height) }
            switch frame.pixels {
            case .rgb(let rgb): PixelConversion.convert(rgb: rgb, width: frame.width, height: frame.height, into: &image!)
            case .jpeg(let jpeg): try PixelConversion.convert(jpeg: jpeg, into: &image!)
            }
            if encoder == nil {
                encoder = try H264Encoder(settings: H264Settings(width: width, height: height, frameRate: frameRate,
                                                                 bitrate: bitrate, keyFrameInterval: Int(frameRate.rounded(.up))))
            }
            let start = firstTimestamp ?? frame.timestamp
            firstTimestamp = start
            guard let coded = try encoder!.encode(image!, timestamp: frame.timestamp - start) else { return nil }
            if writer == nil {
                guard coded.isKeyFrame, let sps = coded.sps, let pps = coded.pps else { return nil }
                try open(VideoTrack(format: .h264(sps: sps, pps: pps), width: width, height: height), at: frame.timestamp)
            }
            return VideoSample(data: coded.sample, duration: nominalDuration, isSync: coded.isKeyFrame)
        }
    }

    private func open(_ track: VideoTrack, at timestamp: Double) throws {
        let audio = microphone.map { AudioTrack(channels: $0.settings.channels, preSkip: $0.preSkip) }
        writer = BackgroundFragmentWriter(try FragmentedMP4Writer(path: path, track: track, audio: audio, creationTime: creationTime,
                                                                       metadata: metadata))
        let origin = Self.monotonicTime(of: timestamp)
        self.origin = origin
        microphone?.start(at: origin)
    }

    /// The frame's time on the sound's clock (CLOCK_MONOTONIC): its own timestamp when it is
    /// on that clock (V4L2 capture drivers), else now, as it arrives (the synthetic camera counts
    /// from its opening; a device on another clock).
    private static func monotonicTime(of timestamp: Double) -> Double {
        let now = ALSACapture.monotonicNow()
        return abs(now - timestamp) < 1 ? timestamp : now
    }
}

public enum VideoRecordingError: Error, CustomStringConvertible {
    case noFrames
    case frameTooSmall(Int, Int)

    public var description: String {
        switch self {
        case .noFrames: "the recording ended before its first frame was written"
        case .frameTooSmall(let w, let h): "frames of \(w)×\(h) are too small to encode"
        }
    }
}
