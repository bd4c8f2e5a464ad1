/// One journal fragment's `moof`: mfhd + traf{tfhd default-base-is-moof, tfdt v1, trun} for the
/// video, then one for the sound when the fragment has any; the mdat holds the video samples,
/// then the sound's. With default-base-is-moof nothing in it depends on where the fragment sits.
enum MovieFragmentBox {
    private static let tfhdFlags: UInt32 = 0x02_0000  // default-base-is-moof
    private static let trunFlags: UInt32 = 0x00_0701  // data_offset | duration | size | flags
    private static let syncFlags: UInt32 = 0x0200_0000  // depends on no other sample
    private static let nonSyncFlags: UInt32 = 0x0101_0000  // depends on others, not a sync sample

    /// One track's run in the fragment.
    struct Run {
        var trackID: UInt32
        var baseDecodeTime: UInt64
        var samples: [SampleRecord]
    }

    /// moof 8 + mfhd 16, and per traf: traf 8 + tfhd 16 + tfdt 20 + trun 20 + 12 per sample.
    private static func size(of runs: [Run]) -> Int { 24 + runs.reduce(0) { $0 + 64 + 12 * $1.samples.count } }

    static func make(sequenceNumber: UInt32, runs: [Run], mdatHeaderSize: Int) -> [UInt8] {
        let size = size(of: runs)
        var dataOffset = size + mdatHeaderSize  // from the moof to the run's first sample
        let moof = BoxBuilder.build { builder in
            builder.box("moof") { moof in
                moof.fullBox("mfhd") { $0.u32(sequenceNumber) }
                for run in runs {
                    moof.box("traf") { traf in
                        traf.fullBox("tfhd", flags: tfhdFlags) { $0.u32(run.trackID) }
                        traf.fullBox("tfdt", version: 1) { $0.u64(run.baseDecodeTime) }
                        traf.fullBox("trun", flags: trunFlags) { trun in
                            trun.u32(UInt32(run.samples.count))
                            trun.u32(UInt32(dataOffset))
                            for sample in run.samples {
                                trun.u32(sample.duration)
                                trun.u32(sample.size)
                                trun.u32(sample.isSync ? syncFlags : nonSyncFlags)
                            }
                        }
                    }
                    dataOffset += run.samples.reduce(0) { $0 + Int($1.size) }
                }
            }
        }
        assert(moof.count == size)
        return moof
    }

    /// The runs of a moof this muxer wrote (video, then sound if any), checked against the mdat
    /// that follows it: each trun must point right after the previous one and together they must
    /// fill the mdat's payload exactly.
    static func read(_ moof: [UInt8], mdatHeaderSize: Int, mdatPayloadSize: Int) throws -> [Run] {
        var root = BoxReader(moof)
        guard let box = try root.children().first, box.type == "moof" else { throw MP4Error(.malformed, "not a moof") }
        let trafs = try BoxReader.children(moof, of: box).filter { $0.type == "traf" }
        guard (1...2).contains(trafs.count) else { throw MP4Error(.malformed, "a moof with \(trafs.count) trafs") }
        var runs: [Run] = []
        var expectedOffset = moof.count + mdatHeaderSize
        for (index, trafBox) in trafs.enumerated() {
            let traf = try BoxReader.children(moof, of: trafBox)
            var tfhd = try BoxReader.fullBox(moof, try traf.first("tfhd"))
            var tfdt = try BoxReader.fullBox(moof, try traf.first("tfdt"))
            var trun = try BoxReader.fullBox(moof, try traf.first("trun"))
            guard tfhd.flags == tfhdFlags, trun.flags == trunFlags, trun.version == 0, tfdt.version == 1 else {
                throw MP4Error(.malformed, "moof was not written by lensd (tfhd 0x\(String(tfhd.flags, radix: 16)), trun 0x\(String(trun.flags, radix: 16)))")
            }
            let trackID = try tfhd.reader.u32()
            guard trackID == UInt32(index + 1) else { throw MP4Error(.malformed, "traf \(index + 1) is for track \(trackID)") }
            let baseDecodeTime = try tfdt.reader.u64()
            let count = Int(try trun.reader.u32())
            let dataOffset = Int(try trun.reader.u32())
            guard count > 0, trun.reader.remaining == 12 * count, dataOffset == expectedOffset else {
                throw MP4Error(.malformed, "trun of \(count) samples does not match its moof and mdat")
            }
            var samples: [SampleRecord] = []
            for _ in 0..<count {
                let duration = try trun.reader.u32(), size = try trun.reader.u32(), flags = try trun.reader.u32()
                samples.append(SampleRecord(size: size, duration: duration, isSync: flags == syncFlags))
                expectedOffset += Int(size)
            }
            runs.append(Run(trackID: trackID, baseDecodeTime: baseDecodeTime, samples: samples))
        }
        let total = expectedOffset - moof.count - mdatHeaderSize
        guard total == mdatPayloadSize else {
            throw MP4Error(.malformed, "trun sizes add up to \(total) bytes, the mdat holds \(mdatPayloadSize)")
        }
        return runs
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
