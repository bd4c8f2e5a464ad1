/// Builds `moov`: the journal's (empty sample tables + mvex, so readers expect fragments) and the
/// final one (the full sample tables, no mvex); the video track, then the sound track if any, then
/// the recording's QuickTime metadata.
/// One builder, so the two cannot drift apart.
enum MovieBox {
    /// Movie and track header timescale (ms); the media timescales are the samples' (90 kHz video, 48 kHz sound).
    static let movieTimescale: UInt32 = 1000
    static let videoTrackID: UInt32 = 1
    static let audioTrackID: UInt32 = 2

    static func journal(_ header: MovieHeader) -> [UInt8] {
        build(header, video: SampleTable(chunks: []), audio: SampleTable(chunks: []), fragmented: true)
    }

    static func final(_ header: MovieHeader, video: SampleTable, audio: SampleTable) -> [UInt8] {
        build(header, video: video, audio: audio, fragmented: false)
    }

    /// One track as the moov describes it.
    fileprivate struct Track {
        let id: UInt32
        let timescale: UInt32
        let table: SampleTable
        let sampleDescription: [UInt8]
        let isVideo: Bool

        func movieDuration() -> UInt64 {
            let ticks = UInt64(timescale)
            return (table.duration * UInt64(MovieBox.movieTimescale) + ticks / 2) / ticks
        }
    }

    private static func build(_ header: MovieHeader, video: SampleTable, audio: SampleTable, fragmented: Bool) -> [UInt8] {
        var tracks = [Track(id: videoTrackID, timescale: FragmentedMP4Writer.timescale, table: video,
                            sampleDescription: header.sampleDescription, isVideo: true)]
        if let description = header.audioSampleDescription {
            tracks.append(Track(id: audioTrackID, timescale: AudioTrack.timescale, table: audio,
                                sampleDescription: description, isVideo: false))
        }
        let movieDuration = tracks.map { $0.movieDuration() }.max() ?? 0
        let time = header.creationTime
        return BoxBuilder.build { builder in
            builder.box("moov") { moov in
                // Version 1 only when a time or duration outgrows 32 bits (after 2040, or > 13 h at 90 kHz).
                let movieVersion: UInt8 = max(time, movieDuration) > UInt64(UInt32.max) ? 1 : 0
                moov.fullBox("mvhd", version: movieVersion) { box in
                    box.times(time, timescale: movieTimescale, duration: movieDuration, version: movieVersion)
                    box.u32(0x0001_0000)  // rate 1.0
                    box.u16(0x0100)  // volume 1.0
                    box.zeros(10)
                    box.unityMatrix()
                    box.zeros(24)
                    box.u32(UInt32(tracks.count + 1))  // next_track_ID
                }
                for track in tracks { moov.trak(track, header: header) }
                if fragmented {
                    moov.box("mvex") { mvex in
                        for track in tracks {
                            mvex.fullBox("trex") { box in
                                box.u32(track.id)
                                box.u32(1)  // default_sample_description_index
                                box.zeros(12)  // every trun carries duration, size and flags
                            }
                        }
                    }
                }
                moov.append(header.metadataBoxes)
            }
        }
    }
}

private extension BoxBuilder {
    mutating func trak(_ track: MovieBox.Track, header: MovieHeader) {
        let time = header.creationTime
        let movieDuration = track.movieDuration()
        box("trak") { trak in
            let trackVersion: UInt8 = max(time, movieDuration) > UInt64(UInt32.max) ? 1 : 0
            trak.fullBox("tkhd", version: trackVersion, flags: 3) { box in  // enabled, in movie
                box.timesWithTrack(time, trackID: track.id, duration: movieDuration, version: trackVersion)
                box.zeros(8)
                box.u16(0)  // layer
                box.u16(0)  // alternate_group
                box.u16(track.isVideo ? 0 : 0x0100)  // volume: 1.0 for sound
                box.u16(0)
                box.unityMatrix()
                box.u32(track.isVideo ? UInt32(header.width) << 16 : 0)
                box.u32(track.isVideo ? UInt32(header.height) << 16 : 0)
            }
            trak.box("mdia") { mdia in
                let mediaDuration = track.table.duration
                let mediaVersion: UInt8 = max(time, mediaDuration) > UInt64(UInt32.max) ? 1 : 0
                mdia.fullBox("mdhd", version: mediaVersion) { box in
                    box.times(time, timescale: track.timescale, duration: mediaDuration, version: mediaVersion)
                    box.u16(0x55C4)  // language 'und'
                    box.u16(0)
                }
                mdia.fullBox("hdlr") { box in
                    box.u32(0)
                    box.fourCC(track.isVideo ? "vide" : "soun")
                    box.zeros(12)
                    box.append(Array((track.isVideo ? "VideoHandler\0" : "SoundHandler\0").utf8))
                }
                mdia.box("minf") { minf in
                    if track.isVideo {
                        minf.fullBox("vmhd", flags: 1) { $0.zeros(8) }
                    } else {
                        minf.fullBox("smhd") { $0.zeros(4) }  // balance, reserved
                    }
                    minf.box("dinf") { dinf in
                        dinf.fullBox("dref") { dref in
                            dref.u32(1)
                            dref.fullBox("url ", flags: 1) { _ in }  // samples are in this file
                        }
                    }
                    minf.box("stbl") { track.table.write(sampleDescription: track.sampleDescription, into: &$0) }
                }
            }
        }
    }

    /// creation, modification, timescale, duration (mvhd, mdhd).
    mutating func times(_ time: UInt64, timescale: UInt32, duration: UInt64, version: UInt8) {
        if version == 1 {
            u64(time); u64(time); u32(timescale); u64(duration)
        } else {
            u32(UInt32(time)); u32(UInt32(time)); u32(timescale); u32(UInt32(duration))
        }
    }

    /// creation, modification, track_ID, reserved, duration (tkhd).
    mutating func timesWithTrack(_ time: UInt64, trackID: UInt32, duration: UInt64, version: UInt8) {
        if version == 1 {
            u64(time); u64(time); u32(trackID); u32(0); u64(duration)
        } else {
            u32(UInt32(time)); u32(UInt32(time)); u32(trackID); u32(0); u32(UInt32(duration))
        }
    }

    mutating func unityMatrix() {
        for value: UInt32 in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] { u32(value) }
    }
}
