/// One moof + mdat pair of the journal, as the muxer wrote it or recovery read it back.
struct Fragment {
    let moofOffset: Int
    let mdatOffset: Int
    let mdatHeaderSize: Int
    let samples: [SampleRecord]
    /// The sound track's samples, stored after the video's in the same mdat (empty for a silent recording).
    let audioSamples: [SampleRecord]

    private var videoSize: Int { samples.reduce(0) { $0 + Int($1.size) } }
    var payloadSize: Int { videoSize + audioSamples.reduce(0) { $0 + Int($1.size) } }
    var mdatEnd: Int { mdatOffset + mdatHeaderSize + payloadSize }
    var mdat: RootBox { RootBox(type: "mdat", offset: mdatOffset, size: mdatEnd - mdatOffset, headerSize: mdatHeaderSize) }
    var chunk: Chunk { Chunk(offset: UInt64(mdatOffset + mdatHeaderSize), samples: samples) }
    var audioChunk: Chunk? {
        audioSamples.isEmpty ? nil : Chunk(offset: UInt64(mdatOffset + mdatHeaderSize + videoSize), samples: audioSamples)
    }
}
