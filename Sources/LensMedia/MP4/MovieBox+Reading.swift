/// Reads back the two kinds of `moov` `MovieBox` writes, for recovery.
extension MovieBox {
    /// The header of a journal's moov (one with mvex); anything else means the file is not a lensd journal.
    static func readJournal(_ moov: [UInt8]) throws -> MovieHeader {
        let boxes = try rootChildren(moov)
        guard boxes.contains(where: { $0.type == "mvex" }) else { throw MP4Error(.notLensdFile, "the journal's moov has no mvex") }
        var mvhd = try BoxReader.fullBox(moov, try boxes.first("mvhd"))
        let creationTime = mvhd.version == 1 ? try mvhd.reader.u64() : UInt64(try mvhd.reader.u32())

        let traks = boxes.filter { $0.type == "trak" }
        guard (1...2).contains(traks.count) else { throw MP4Error(.notLensdFile, "the journal's moov has \(traks.count) tracks") }
        let trak = try BoxReader.children(moov, of: traks[0])
        let tkhd = try trak.first("tkhd")
        // width and height (16.16 fixed point) end the tkhd of either version.
        var size = BoxReader(moov, range: (tkhd.range.upperBound - 8)..<tkhd.range.upperBound)
        let width = Int(try size.u32() >> 16), height = Int(try size.u32() >> 16)

        let stbl = try sampleTable(moov, trak: trak)
        let stsd = try stbl.first("stsd")
        var entries = try BoxReader.fullBox(moov, stsd).reader
        guard try entries.u32() == 1, let entry = try entries.children().first, ["avc1", "jpeg"].contains(entry.type) else {
            throw MP4Error(.notLensdFile, "the journal's sample description is not one avc1 or jpeg entry")
        }
        var audioDescription: [UInt8]?
        if traks.count == 2 {
            let audioStsd = try sampleTable(moov, trak: try BoxReader.children(moov, of: traks[1])).first("stsd")
            audioDescription = Array(moov[audioStsd.range])
            _ = try AudioSampleDescription.channels(of: audioDescription!)
        }
        // The QuickTime metadata is carried over as it was written: the final moov must say what the journal said.
        let metadataBoxes = boxes.filter { ["udta", "meta"].contains($0.type) }.flatMap { moov[$0.range] }
        return MovieHeader(creationTime: creationTime, width: width, height: height,
                           sampleDescription: Array(moov[stsd.range]), audioSampleDescription: audioDescription,
                           metadataBoxes: metadataBoxes)
    }

    /// What recovery reports of a finalized file: the video's sample count and duration (90 kHz
    /// ticks), the sound's duration (48 kHz ticks) when it has a sound track.
    struct FinalSummary {
        var sampleCount: Int
        var duration: UInt64
        var audioDuration: UInt64?
    }

    /// A finalized file's moov (no mvex, filled stts).
    static func readFinal(_ moov: [UInt8]) throws -> FinalSummary {
        let boxes = try rootChildren(moov)
        guard !boxes.contains(where: { $0.type == "mvex" }) else { throw MP4Error(.malformed, "a second fragmented moov") }
        let traks = boxes.filter { $0.type == "trak" }
        guard (1...2).contains(traks.count) else { throw MP4Error(.malformed, "the final moov has \(traks.count) tracks") }
        let video = try timeToSample(moov, trak: traks[0])
        guard video.sampleCount > 0 else { throw MP4Error(.malformed, "the final moov has no samples") }
        let audio = traks.count == 2 ? try timeToSample(moov, trak: traks[1]) : nil
        return FinalSummary(sampleCount: video.sampleCount, duration: video.duration, audioDuration: audio?.duration)
    }

    /// Sample count and summed duration of a trak's stts.
    private static func timeToSample(_ moov: [UInt8], trak trakBox: ChildBox) throws -> (sampleCount: Int, duration: UInt64) {
        let trak = try BoxReader.children(moov, of: trakBox)
        var stts = try BoxReader.fullBox(moov, try sampleTable(moov, trak: trak).first("stts")).reader
        let entryCount = Int(try stts.u32())
        guard entryCount <= stts.remaining / 8 else { throw MP4Error(.malformed, "stts has \(entryCount) entries") }
        var sampleCount = 0, duration: UInt64 = 0
        for _ in 0..<entryCount {
            let count = try stts.u32(), delta = try stts.u32()
            let (sum, overflow) = duration.addingReportingOverflow(UInt64(count) * UInt64(delta))
            guard !overflow else { throw MP4Error(.malformed, "stts duration overflows") }
            sampleCount += Int(count)
            duration = sum
        }
        return (sampleCount, duration)
    }

    private static func rootChildren(_ moov: [UInt8]) throws -> [ChildBox] {
        var reader = BoxReader(moov)
        guard let root = try reader.children().first, root.type == "moov", root.range == moov.indices else {
            throw MP4Error(.malformed, "not one moov box")
        }
        return try BoxReader.children(moov, of: root)
    }

    private static func sampleTable(_ moov: [UInt8], trak: [ChildBox]) throws -> [ChildBox] {
        let mdia = try BoxReader.children(moov, of: try trak.first("mdia"))
        let minf = try BoxReader.children(moov, of: try mdia.first("minf"))
        return try BoxReader.children(moov, of: try minf.first("stbl"))
    }
}
