/// One journal fragment's `moof`: mfhd + traf{tfhd default-base-is-moof, tfdt v1, trun}. With
/// default-base-is-moof nothing in it depends on where the fragment sits in the file.
enum MovieFragmentBox {
    private static let tfhdFlags: UInt32 = 0x02_0000  // default-base-is-moof
    private static let trunFlags: UInt32 = 0x00_0701  // data_offset | duration | size | flags
    private static let syncFlags: UInt32 = 0x0200_0000  // depends on no other sample
    private static let nonSyncFlags: UInt32 = 0x0101_0000  // depends on others, not a sync sample

    static func make(sequenceNumber: UInt32, baseDecodeTime: UInt64, samples: [SampleRecord], mdatHeaderSize: Int) -> [UInt8] {
        // moof 8 + mfhd 16 + traf 8 + tfhd 16 + tfdt 20 + trun 20 + 12 per sample.
        let size = 88 + 12 * samples.count
        let moof = BoxBuilder.build { builder in
            builder.box("moof") { moof in
                moof.fullBox("mfhd") { $0.u32(sequenceNumber) }
                moof.box("traf") { traf in
                    traf.fullBox("tfhd", flags: tfhdFlags) { $0.u32(1) }
                    traf.fullBox("tfdt", version: 1) { $0.u64(baseDecodeTime) }
                    traf.fullBox("trun", flags: trunFlags) { trun in
                        trun.u32(UInt32(samples.count))
                        trun.u32(UInt32(size + mdatHeaderSize))  // data_offset: from the moof to the first sample
                        for sample in samples {
                            trun.u32(sample.duration)
                            trun.u32(sample.size)
                            trun.u32(sample.isSync ? syncFlags : nonSyncFlags)
                        }
                    }
                }
            }
        }
        assert(moof.count == size)
        return moof
    }

    /// The samples of a moof this muxer wrote, checked against the mdat that follows it: the trun
    /// must point at the mdat's payload and its sizes must fill it exactly.
    static func read(_ moof: [UInt8], mdatHeaderSize: Int, mdatPayloadSize: Int) throws -> [SampleRecord] {
        var root = BoxReader(moof)
        guard let box = try root.children().first, box.type == "moof" else { throw MP4Error(.malformed, "not a moof") }
        let traf = try BoxReader.children(moof, of: try BoxReader.children(moof, of: box).first("traf"))
        let tfhd = try BoxReader.fullBox(moof, try traf.first("tfhd"))
        var trun = try BoxReader.fullBox(moof, try traf.first("trun"))
        guard tfhd.flags == tfhdFlags, trun.flags == trunFlags, trun.version == 0 else {
            throw MP4Error(.malformed, "moof was not written by lensd (tfhd 0x\(String(tfhd.flags, radix: 16)), trun 0x\(String(trun.flags, radix: 16)))")
        }
        let count = Int(try trun.reader.u32())
        let dataOffset = Int(try trun.reader.u32())
        guard count > 0, trun.reader.remaining == 12 * count, dataOffset == moof.count + mdatHeaderSize else {
            throw MP4Error(.malformed, "trun of \(count) samples does not match its moof and mdat")
        }
        var samples: [SampleRecord] = []
        var total = 0
        for _ in 0..<count {
            let duration = try trun.reader.u32(), size = try trun.reader.u32(), flags = try trun.reader.u32()
            samples.append(SampleRecord(size: size, duration: duration, isSync: flags == syncFlags))
            total += Int(size)
        }
        guard total == mdatPayloadSize else {
            throw MP4Error(.malformed, "trun sizes add up to \(total) bytes, the mdat holds \(mdatPayloadSize)")
        }
        return samples
    }
}

/// The `mdat` header: 8 bytes, or 16 with a 64-bit size when the box exceeds 4 GiB.
enum MediaDataBox {
    static func header(payloadSize: Int) -> [UInt8] {
        BoxBuilder.build { header in
            if payloadSize + 8 <= Int(UInt32.max) {
                header.u32(UInt32(payloadSize + 8))
                header.fourCC("mdat")
            } else {
                header.u32(1)
                header.fourCC("mdat")
                header.u64(UInt64(payloadSize + 16))
            }
        }
    }
}
