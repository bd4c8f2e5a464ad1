import C2PA
import FoundationEssentials

/// What the moov says about the recording apart from its samples. The writer makes it from a
/// `VideoTrack`; recovery reads it back from the journal's moov, so both build the same final moov.
struct MovieHeader: Equatable {
    /// Seconds since 1904-01-01 UTC (the MP4 epoch).
    var creationTime: UInt64
    var width: Int
    var height: Int
    /// The whole `stsd` box.
    var sampleDescription: [UInt8]
    /// The sound track's whole `stsd` box; nil for a silent recording.
    var audioSampleDescription: [UInt8]?
    /// Whole boxes that close the moov: where and with what it was recorded (`QuickTimeMetadata`).
    var metadataBoxes: [UInt8]

    /// Seconds from 1904-01-01 to 1970-01-01.
    private static let epochOffset: Double = 2_082_844_800

    init(creationTime: UInt64, width: Int, height: Int, sampleDescription: [UInt8], audioSampleDescription: [UInt8]?,
         metadataBoxes: [UInt8] = []) {
        self.creationTime = creationTime
        self.width = width
        self.height = height
        self.sampleDescription = sampleDescription
        self.audioSampleDescription = audioSampleDescription
        self.metadataBoxes = metadataBoxes
    }

    init(track: VideoTrack, audio: AudioTrack?, creationTime: Date, metadata: CaptureMetadata?) throws {
        guard (1...0xFFFF).contains(track.width), (1...0xFFFF).contains(track.height) else {
            throw MP4Error(.invalidArgument, "video size \(track.width)x\(track.height) out of range")
        }
        let seconds = max(0, (creationTime.timeIntervalSince1970 + Self.epochOffset).rounded(.down))
        self.init(creationTime: UInt64(seconds), width: track.width, height: track.height,
                  sampleDescription: try SampleDescription.box(for: track),
                  audioSampleDescription: try audio.map(AudioSampleDescription.box(for:)),
                  metadataBoxes: metadata.map(QuickTimeMetadata.boxes) ?? [])
    }
}
