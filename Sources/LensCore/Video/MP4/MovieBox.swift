/// Builds `moov`: the journal's (empty sample table + mvex, so readers expect fragments) and the
/// final one (the full sample table, no mvex). One builder, so the two cannot drift apart.
enum MovieBox {
    /// Movie and track header timescale (ms); the media timescale is the 90 kHz of the samples.
    static let movieTimescale: UInt32 = 1000

    static func journal(_ header: MovieHeader) -> [UInt8] {
        build(header, table: SampleTable(chunks: []), fragmented: true)
    }

    static func final(_ header: MovieHeader, table: SampleTable) -> [UInt8] {
        build(header, table: table, fragmented: false)
    }

    private static func build(_ header: MovieHeader, table: SampleTable, fragmented: Bool) -> [UInt8] {
        let mediaDuration = table.duration
        let ticks = UInt64(FragmentedMP4Writer.timescale)
        let movieDuration = (mediaDuration * UInt64(movieTimescale) + ticks / 2) / ticks
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
                    box.u32(2)  // next_track_ID
                }
                moov.box("trak") { trak in
                    trak.fullBox("tkhd", version: movieVersion, flags: 3) { box in  // enabled, in movie
                        box.timesWithTrack(time, duration: movieDuration, version: movieVersion)
                        box.zeros(8)
                        box.u16(0)  // layer
                        box.u16(0)  // alternate_group
                        box.u16(0)  // volume: video
                        box.u16(0)
                        box.unityMatrix()
                        box.u32(UInt32(header.width) << 16)
                        box.u32(UInt32(header.height) << 16)
                    }
                    trak.box("mdia") { mdia in
                        let mediaVersion: UInt8 = max(time, mediaDuration) > UInt64(UInt32.max) ? 1 : 0
                        mdia.fullBox("mdhd", version: mediaVersion) { box in
                            box.times(time, timescale: FragmentedMP4Writer.timescale, duration: mediaDuration,
                                      version: mediaVersion)
                            box.u16(0x55C4)  // language 'und'
                            box.u16(0)
                        }
                        mdia.fullBox("hdlr") { box in
                            box.u32(0)
                            box.fourCC("vide")
                            box.zeros(12)
                            box.append(Array("VideoHandler\0".utf8))
                        }
                        mdia.box("minf") { minf in
                            minf.fullBox("vmhd", flags: 1) { $0.zeros(8) }
                            minf.box("dinf") { dinf in
                                dinf.fullBox("dref") { dref in
                                    dref.u32(1)
                                    dref.fullBox("url ", flags: 1) { _ in }  // samples are in this file
                                }
                            }
                            minf.box("stbl") { table.write(sampleDescription: header.sampleDescription, into: &$0) }
                        }
                    }
                }
                if fragmented {
                    moov.box("mvex") { mvex in
                        mvex.fullBox("trex") { box in
                            box.u32(1)  // track_ID
                            box.u32(1)  // default_sample_description_index
                            box.zeros(12)  // every trun carries duration, size and flags
                        }
                    }
                }
            }
        }
    }
}

private extension BoxBuilder {
    /// creation, modification, timescale, duration (mvhd, mdhd).
    mutating func times(_ time: UInt64, timescale: UInt32, duration: UInt64, version: UInt8) {
        if version == 1 {
            u64(time); u64(time); u32(timescale); u64(duration)
        } else {
            u32(UInt32(time)); u32(UInt32(time)); u32(timescale); u32(UInt32(duration))
        }
    }

    /// creation, modification, track_ID 1, reserved, duration (tkhd).
    mutating func timesWithTrack(_ time: UInt64, duration: UInt64, version: UInt8) {
        if version == 1 {
            u64(time); u64(time); u32(1); u32(0); u64(duration)
        } else {
            u32(UInt32(time)); u32(UInt32(time)); u32(1); u32(0); u32(UInt32(duration))
        }
    }

    mutating func unityMatrix() {
        for value: UInt32 in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] { u32(value) }
    }
}
