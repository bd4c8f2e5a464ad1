import C2PA
import LensSystem

/// Turns the journal into a plain MP4 without moving a sample byte; shared by
/// `FragmentedMP4Writer.finish()` and `MP4Recovery`.
///
/// Order matters for crash safety: the new moov is durable before any moof stops being one, so a
/// crash at any point leaves either a journal recovery can finalize again or a finished file.
struct InPlaceFinalizer {
    let path: String
    /// Where the journal's `moov` sits (right after the reserve).
    let journalMovieOffset: Int
    let movie: MovieHeader
    let fragments: [Fragment]

    var reserve: Range<Int> { (journalMovieOffset - JournalLayout.reserveSize)..<journalMovieOffset }

    /// Cuts everything after the last fragment, appends the final moov, fsyncs, retypes the moofs
    /// and the journal moov to `free`, fsyncs. `hasher`: the writer's, fed every box up to the last
    /// mdat as it reads once finalized, or nil (recovery) to hash the finished file as it lies.
    func finalize(_ file: borrowing FileDescriptor, hasher: BMFFHasher?, droppedBytes: Int) throws -> FinalizedMP4 {
        guard let end = fragments.last?.mdatEnd else { throw MP4Error(.noCompleteFragment, "\(path): no complete fragment") }
        let table = SampleTable(chunks: fragments.map(\.chunk))
        let audio = SampleTable(chunks: fragments.compactMap(\.audioChunk))
        let moov = MovieBox.final(movie, video: table, audio: audio)
        try MP4Error.io("finalize \(path)") {
            try file.truncate(to: end)
            try file.writeAll(moov, at: end)
            try file.sync()
            for offset in [journalMovieOffset] + fragments.map(\.moofOffset) {
                try file.writeAll(JournalLayout.retiredType, at: offset + 4)
            }
            try file.sync()
        }
        let hash: [UInt8]
        if let hasher {
            try hasher.add(box: moov, at: end)
            hash = try hasher.finalize()
        } else {
            hash = try MP4Error.io("hash \(path)") { try BMFFHasher.hash(fileAt: path) }
        }
        return FinalizedMP4(path: path, reserve: reserve, bmffHash: hash,
                            duration: Double(table.duration) / Double(FragmentedMP4Writer.timescale),
                            sampleCount: table.sampleCount, size: end + moov.count, droppedBytes: droppedBytes,
                            audioDuration: movie.audioSampleDescription == nil ? nil
                                : Double(audio.duration) / Double(AudioTrack.timescale))
    }
}
