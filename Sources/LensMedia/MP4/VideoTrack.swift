/// How the samples of a video track are coded.
public enum VideoTrackFormat: Sendable, Equatable {
    /// H.264 with its one SPS and PPS (NAL units including their header byte), written to `avcC`.
    case h264(sps: [UInt8], pps: [UInt8])
    /// Motion JPEG: every sample is a whole JPEG (QuickTime `jpeg` sample entry).
    case jpeg
}

/// The one video track of a recording.
public struct VideoTrack: Sendable, Equatable {
    public var format: VideoTrackFormat
    public var width: Int
    public var height: Int

    public init(format: VideoTrackFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}

/// One coded frame. H.264: 4-byte big-endian length-prefixed NAL units (no SPS/PPS/AUD); JPEG: one JPEG.
public struct VideoSample: Sendable {
    public var data: [UInt8]
    /// In 90 kHz ticks.
    public var duration: UInt32
    public var isSync: Bool

    public init(data: [UInt8], duration: UInt32, isSync: Bool) {
        self.data = data
        self.duration = duration
        self.isSync = isSync
    }
}
