/// The sound track's `stsd`: one `Opus` AudioSampleEntry with its `dOps` (Opus-in-ISOBMFF §4.3).
enum AudioSampleDescription {
    static func box(for track: AudioTrack) throws -> [UInt8] {
        guard track.channels == 1 || track.channels == 2, (0...0xFFFF).contains(track.preSkip) else {
            throw MP4Error(.invalidArgument, "an Opus track of \(track.channels) channels, pre-skip \(track.preSkip)")
        }
        return BoxBuilder.build { builder in
            builder.fullBox("stsd") { stsd in
                stsd.u32(1)
                stsd.box("Opus") { entry in
                    entry.zeros(6)
                    entry.u16(1)  // data_reference_index
                    entry.zeros(8)
                    entry.u16(UInt16(track.channels))
                    entry.u16(16)  // samplesize
                    entry.zeros(4)
                    entry.u32(AudioTrack.timescale << 16)
                    entry.box("dOps") { dOps in
                        dOps.u8(0)  // Version
                        dOps.u8(UInt8(track.channels))
                        dOps.u16(UInt16(track.preSkip))
                        dOps.u32(AudioTrack.timescale)  // InputSampleRate
                        dOps.u16(0)  // OutputGain
                        dOps.u8(0)  // ChannelMappingFamily: mono or stereo
                    }
                }
            }
        }
    }

    /// The channel count of an `stsd` this muxer wrote; throws for anything else.
    static func channels(of stsd: [UInt8]) throws -> Int {
        // fullBox header 12 + entry_count 4, entry header 8, then 8 + 8 bytes to channelcount.
        guard stsd.count >= 16 + 8 + 18, Array(stsd[20..<24]) == Array("Opus".utf8) else {
            throw MP4Error(.notLensdFile, "the sound track's sample description is not one Opus entry")
        }
        let count = Int(stsd[40]) << 8 | Int(stsd[41])
        guard count == 1 || count == 2 else { throw MP4Error(.malformed, "an Opus entry with \(count) channels") }
        return count
    }
}
