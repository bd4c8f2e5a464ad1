/// The `stsd` box: one visual sample entry, `avc1`+`avcC` or `jpeg`.
enum SampleDescription {
    static func box(for track: VideoTrack) throws -> [UInt8] {
        let entry: [UInt8]
        switch track.format {
        case .h264(let sps, let pps):
            let configuration = try decoderConfiguration(sps: sps, pps: pps)
            entry = visualEntry("avc1", track: track, compressor: "") { $0.box("avcC") { $0.append(configuration) } }
        case .jpeg:
            entry = visualEntry("jpeg", track: track, compressor: "Photo - JPEG") { _ in }
        }
        return BoxBuilder.build { builder in
            builder.fullBox("stsd") { box in
                box.u32(1)
                box.append(entry)
            }
        }
    }

    /// AVCDecoderConfigurationRecord: version 1, profile/compat/level from the SPS, 4-byte NAL lengths.
    private static func decoderConfiguration(sps: [UInt8], pps: [UInt8]) throws -> [UInt8] {
        guard sps.count >= 4, sps.count <= 0xFFFF, !pps.isEmpty, pps.count <= 0xFFFF else {
            throw MP4Error(.invalidArgument, "SPS of \(sps.count) bytes or PPS of \(pps.count) bytes cannot go into avcC")
        }
        return BoxBuilder.build { record in
            record.u8(1)
            record.append(Array(sps[1...3]))
            record.u8(0xFF)  // lengthSizeMinusOne = 3
            record.u8(0xE1)  // one SPS
            record.u16(UInt16(sps.count))
            record.append(sps)
            record.u8(1)
            record.u16(UInt16(pps.count))
            record.append(pps)
        }
    }

    /// VisualSampleEntry (ISO 14496-12 12.1.3), 86 bytes before its children.
    private static func visualEntry(_ type: String, track: VideoTrack, compressor: String,
                                    children: (inout BoxBuilder) -> Void) -> [UInt8] {
        BoxBuilder.build { builder in
            builder.box(type) { entry in
                entry.zeros(6)
                entry.u16(1)  // data_reference_index
                entry.zeros(16)
                entry.u16(UInt16(track.width))
                entry.u16(UInt16(track.height))
                entry.u32(0x0048_0000)  // 72 dpi
                entry.u32(0x0048_0000)
                entry.u32(0)
                entry.u16(1)  // frame_count
                let name = Array(compressor.utf8.prefix(31))
                entry.u8(UInt8(name.count))
                entry.append(name)
                entry.zeros(31 - name.count)
                entry.u16(0x0018)  // depth: colour, no alpha
                entry.u16(0xFFFF)  // pre_defined = -1
                children(&entry)
            }
        }
    }
}
