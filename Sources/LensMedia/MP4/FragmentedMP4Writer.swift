import C2PA
import FoundationEssentials
import Glibc
import LensSystem

/// Records a video track (and a sound track) as a crash-safe fragmented MP4 journal (every fragment fsynced, a crash
/// loses at most the fragment being written) and finalizes it in place into a plain MP4. Every box
/// goes through a `BMFFHasher` as it is written, as it will read once finalized, so that signing at
/// stop costs the same for any length.
///
/// Not thread-safe: one owner thread. The file stays open until the writer is released.
public final class FragmentedMP4Writer {
    public static let reserveSize = JournalLayout.reserveSize
    public static let timescale: UInt32 = 90000

    private let path: String
    private let file: FileDescriptor
    private let movie: MovieHeader
    private let journalMovieOffset: Int
    /// The journal moov's size, fixed at creation (see `finalMovieBound`).
    let journalMovieSize: Int
    private let hasher: BMFFHasher
    private var fragments: [Fragment] = []
    private var end: Int
    private var decodeTime: UInt64 = 0
    private var audioDecodeTime: UInt64 = 0
    private var isFinished = false

    /// Creates `path` (O_EXCL, mode 0600), writes ftyp + free reserve + moov(mvex), fsyncs file and
    /// directory. `audio`: the recording has a sound track too. `metadata`: where and with what it
    /// is recorded, written into the moov as QuickTime metadata (journal and final alike).
    public init(path: String, track: VideoTrack, audio: AudioTrack? = nil, creationTime: Date,
                metadata: CaptureMetadata? = nil) throws {
        movie = try MovieHeader(track: track, audio: audio, creationTime: creationTime, metadata: metadata)
        let fileType = JournalLayout.fileType(for: track.format), reserve = JournalLayout.reserve()
        let journalMovie = MovieBox.journal(movie)
        self.path = path
        journalMovieOffset = fileType.count + reserve.count
        journalMovieSize = journalMovie.count
        end = journalMovieOffset + journalMovie.count
        hasher = BMFFHasher()
        try hasher.add(box: fileType, at: 0)
        try hasher.add(box: reserve, at: fileType.count)
        try hasher.begin(head: JournalLayout.retiredHeader(of: journalMovie), at: journalMovieOffset)
        let journal = fileType + reserve + journalMovie
        file = try MP4Error.io("create \(path)") {
            try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o600)
        }
        do {
            try file.writeAll(journal, at: 0)
            try file.sync()
            try FileSystem.syncDirectory(Self.directory(of: path))
        } catch {
            try? FileSystem.unlink(path)
            throw MP4Error(error, while: "start \(path)")
        }
    }

    /// Appends one fragment (moof + mdat; the first video sample should be sync, `audio` the sound
    /// of about the same time) and fsyncs. Throws on an empty video list, or sound for a silent
    /// recording. A failed append leaves the file as it was before it, so recording may go on.
    public func appendFragment(_ samples: [VideoSample], audio: [AudioSample] = []) throws {
        guard !isFinished else { throw MP4Error(.finished, "\(path) is already finished") }
        guard !samples.isEmpty else { throw MP4Error(.invalidArgument, "an empty fragment") }
        guard audio.isEmpty || movie.audioSampleDescription != nil else {
            throw MP4Error(.invalidArgument, "sound for a recording without a sound track")
        }
        let records = try samples.map { try Self.record($0.data, duration: $0.duration, isSync: $0.isSync) }
        let audioRecords = try audio.map { try Self.record($0.data, duration: $0.duration, isSync: true) }
        var runs = [MovieFragmentBox.Run(trackID: MovieBox.videoTrackID, baseDecodeTime: decodeTime, samples: records)]
        if !audioRecords.isEmpty {
            runs.append(MovieFragmentBox.Run(trackID: MovieBox.audioTrackID, baseDecodeTime: audioDecodeTime, samples: audioRecords))
        }
        let payloads = samples.map(\.data) + audio.map(\.data)
        let mdatHeader = MediaDataBox.header(payloadSize: payloads.reduce(0) { $0 + $1.count })
        let moof = MovieFragmentBox.make(sequenceNumber: UInt32(fragments.count + 1), runs: runs, mdatHeaderSize: mdatHeader.count)
        let fragment = Fragment(moofOffset: end, mdatOffset: end + moof.count, mdatHeaderSize: mdatHeader.count,
                                samples: records, audioSamples: audioRecords)
        do {
            try file.writeAll(moof + mdatHeader, at: fragment.moofOffset)
            var offset = fragment.mdatOffset + mdatHeader.count
            for payload in payloads {
                try file.writeAll(payload, at: offset)
                offset += payload.count
            }
            try file.sync()
        } catch {
            try? file.truncate(to: end)
            throw MP4Error(error, while: "append to \(path)")
        }
        // Hashed once durable, as the file reads once finalized: the moof retired to a free box.
        try hasher.begin(head: JournalLayout.retiredHeader(of: moof), at: fragment.moofOffset)
        try hasher.begin(head: mdatHeader, at: fragment.mdatOffset)
        for payload in payloads { try hasher.update(payload) }
        fragments.append(fragment)
        end = fragment.mdatEnd
        decodeTime += records.reduce(0) { $0 + UInt64($1.duration) }
        audioDecodeTime += audioRecords.reduce(0) { $0 + UInt64($1.duration) }
    }

    private static func record(_ data: [UInt8], duration: UInt32, isSync: Bool) throws -> SampleRecord {
        guard !data.isEmpty, data.count <= Int(UInt32.max) else { throw MP4Error(.invalidArgument, "a sample of \(data.count) bytes") }
        return SampleRecord(size: UInt32(data.count), duration: duration, isSync: isSync)
    }

    /// Bytes in the file so far.
    public var size: Int { end }

    /// The most the final moov can take for a recording of `samples` samples (picture and sound)
    /// in `fragments` fragments: the finished file is at most the journal's size plus this, so a
    /// size limit can stop a recording while the finished file fits. Per sample at most an stts,
    /// an stss and an stsz entry; per fragment two chunks (picture, sound), each an stsc entry
    /// and a co64 offset; the rest is the journal moov's boxes (whose mvex the final one drops)
    /// and the stbl's box headers.
    static func finalMovieBound(journalMovieSize: Int, samples: Int, fragments: Int) -> Int {
        journalMovieSize + 512 + 16 * samples + 40 * fragments
    }

    /// Seconds recorded so far.
    public var duration: Double { Double(decodeTime) / Double(Self.timescale) }

    /// Seconds of sound recorded so far.
    public var audioDuration: Double { Double(audioDecodeTime) / Double(AudioTrack.timescale) }

    /// Finalizes in place and returns the result; the writer is done afterwards, even when this throws
    /// (`MP4Recovery.finalize` can then finish the file).
    public func finish() throws -> FinalizedMP4 {
        guard !isFinished else { throw MP4Error(.finished, "\(path) is already finished") }
        isFinished = true
        let finalizer = InPlaceFinalizer(path: path, journalMovieOffset: journalMovieOffset, movie: movie, fragments: fragments)
        return try finalizer.finalize(file, hasher: hasher, droppedBytes: 0)
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
