import CH264

/// Software H.264 through OpenH264 (BSD-2; FACTS §0): Constrained Baseline, one thread, fixed
/// bitrate, an IDR every keyFrameInterval frames (counted in frames encoded, not in time).
/// About 110 fps at 720p on one core on a noisy camera pan (FACTS §2).
/// One owner thread: OpenH264's encoder is not thread-safe.
public final class H264Encoder {
    /// Beyond any H.264 level (level 6.2 tops out at 8192×4320).
    static let maximumSide = 16_384

    public let settings: H264Settings
    private let encoder: OpaquePointer

    /// Throws H264Error for settings OpenH264 cannot take (odd or tiny sizes, no frame rate).
    public init(settings: H264Settings) throws {
        guard (16...Self.maximumSide).contains(settings.width), (16...Self.maximumSide).contains(settings.height),
              settings.width % 2 == 0, settings.height % 2 == 0 else {
            throw H264Error("H.264 needs an even picture size of 16...\(Self.maximumSide) per side, not \(settings.width)×\(settings.height)")
        }
        guard settings.frameRate.isFinite, settings.frameRate > 0, settings.keyFrameInterval >= 1,
              settings.bitrate > 0, settings.maxBitrate >= settings.bitrate, settings.maxBitrate <= Int32.max else {
            throw H264Error("H.264 settings out of range: \(settings.frameRate) fps, \(settings.bitrate) b/s "
                + "(max \(settings.maxBitrate)), key frame every \(settings.keyFrameInterval) frames")
        }
        var encoder: OpaquePointer?
        let status = ch264_open(Int32(settings.width), Int32(settings.height), Float(settings.frameRate),
                                Int32(settings.bitrate), Int32(settings.maxBitrate),
                                Int32(clamping: settings.keyFrameInterval), &encoder)
        guard status == 0, let encoder else {
            throw H264Error("opening the H.264 encoder for \(settings.width)×\(settings.height) failed", code: Int(status))
        }
        self.settings = settings
        self.encoder = encoder
    }

    deinit {
        ch264_close(encoder)
    }

    /// Encodes one picture of the settings' size; `timestamp` in seconds feeds the rate control.
    /// nil when the encoder produced no output for this frame (it must not skip frames with skip off).
    public func encode(_ image: I420Image, timestamp: Double /* seconds */, forceKeyFrame: Bool = false) throws -> H264Frame? {
        guard image.width == settings.width, image.height == settings.height,
              image.y.count >= image.width * image.height, image.u.count >= image.width * image.height / 4,
              image.v.count >= image.width * image.height / 4 else {
            throw H264Error("a \(image.width)×\(image.height) picture for a \(settings.width)×\(settings.height) encoder")
        }
        let milliseconds = timestamp.isFinite ? Int64((timestamp * 1000).rounded()) : 0
        let strides: [Int32] = [Int32(image.width), Int32(image.width / 2), Int32(image.width / 2)]
        let status = image.y.withUnsafeBufferPointer { y in
            image.u.withUnsafeBufferPointer { u in
                image.v.withUnsafeBufferPointer { v in
                    let planes = [y.baseAddress, u.baseAddress, v.baseAddress]
                    return ch264_encode(encoder, planes, strides, milliseconds, forceKeyFrame)
                }
            }
        }
        guard status == 0 else { throw H264Error("encoding a frame failed", code: Int(status)) }
        return try output()
    }

    /// The last encode's NAL units as an MP4 sample.
    private func output() throws -> H264Frame? {
        let type = ch264_frame_type(encoder)
        guard type != videoFrameTypeSkip, type != videoFrameTypeInvalid else { return nil }
        var accessUnit = AnnexBAccessUnit()
        for layer in 0..<ch264_layer_count(encoder) {
            var bytes: UnsafePointer<UInt8>?
            var lengths: UnsafePointer<Int32>?
            let count = Int(ch264_layer_nals(encoder, layer, &bytes, &lengths))
            guard count > 0, var nal = bytes, let lengths else { continue }
            for length in UnsafeBufferPointer(start: lengths, count: count).map(Int.init) {
                guard length > 0 else { throw H264Error("the encoder reported a NAL unit of \(length) bytes") }
                try accessUnit.append(annexB: UnsafeBufferPointer(start: nal, count: length))
                nal += length
            }
        }
        guard !accessUnit.sample.isEmpty else { return nil }
        let isKeyFrame = type == videoFrameTypeIDR
        return H264Frame(sample: accessUnit.sample, isKeyFrame: isKeyFrame,
                         sps: isKeyFrame ? accessUnit.sps : nil, pps: isKeyFrame ? accessUnit.pps : nil)
    }
}

@available(*, unavailable, message: "H264Encoder belongs to one thread")
extension H264Encoder: Sendable {}
