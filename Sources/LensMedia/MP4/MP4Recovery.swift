import C2PA
import Glibc
import LensSystem

/// Finishes what a crash interrupted: a recording journal, or a finalization cut short.
public enum MP4Recovery {
    /// Caps on what recovery reads into memory, whatever a size field says: the journal's moov is
    /// under 1 KiB, a moof 12 bytes per sample, a final moov about 20 bytes per sample.
    private static let journalMovieLimit = 1 << 20
    private static let fragmentLimit = 16 << 20
    private static let finalMovieLimit = 256 << 20

    /// Turns a journal left by a crash into a plain MP4 in place: keeps every complete moof+mdat, truncates a
    /// torn tail, then finalizes like finish(). Also accepts a file that was already finalized (crash after
    /// finish, before signing): returns its FinalizedMP4 without changing it. A file with no complete
    /// fragment, or that is not a lensd journal, throws (MP4Error, hostile-input safe: no crash, no huge
    /// allocation from a size field).
    public static func finalize(path: String) throws -> FinalizedMP4 {
        let file = try MP4Error.io("open \(path)") { try FileDescriptor.open(path, O_RDWR | O_NOFOLLOW) }
        let status = try MP4Error.io("stat \(path)") { try file.status() }
        guard status.isRegularFile else { throw MP4Error(.notLensdFile, "\(path) is not a regular file") }
        let (boxes, end) = try MP4Error.io("read \(path)") { try RootBox.scan(file, fileSize: status.size) }

        // ftyp, the reserve (still free, or the signer's C2PA uuid), then the journal moov (retyped once finalized).
        guard boxes.count >= 3, boxes[0].type == "ftyp", boxes[0].size <= 64,
              JournalLayout.isLensdFileType(try boxes[0].read(file, limit: 64)),
              boxes[1].size == JournalLayout.reserveSize, try isReserve(boxes[1], in: file),
              ["moov", "free"].contains(boxes[2].type)
        else { throw MP4Error(.notLensdFile, "\(path) does not start like a lensd MP4") }
        let journalMovie = boxes[2]

        if boxes.count > 3, let finalMovie = try finalMovie(file, boxes.last!) {
            guard end == status.size else { throw MP4Error(.malformed, "\(path) has bytes after its final moov") }
            return try completeFinalized(path, file, boxes: boxes, movie: finalMovie)
        }

        guard journalMovie.type == "moov" else { throw MP4Error(.malformed, "\(path) has neither a journal nor a final moov") }
        let movie = try MovieBox.readJournal(try journalMovie.read(file, limit: journalMovieLimit))
        let fragments = try completeFragments(file, boxes: boxes[3...], hasAudio: movie.audioSampleDescription != nil)
        let finalizer = InPlaceFinalizer(path: path, journalMovieOffset: journalMovie.offset, movie: movie, fragments: fragments)
        return try finalizer.finalize(file, hasher: nil, droppedBytes: status.size - (fragments.last?.mdatEnd ?? status.size))
    }

    /// The space kept for the manifest: still `free`, or already the signer's C2PA `uuid` box.
    private static func isReserve(_ box: RootBox, in file: borrowing FileDescriptor) throws -> Bool {
        if box.type == "free" { return true }
        guard box.type == "uuid" else { return false }
        return try MP4Error.io("read uuid box") { try file.read(count: 16, at: box.offset + 8) } == ContentProvenanceBox.uuid
    }

    /// The leading moof+mdat pairs that parse and agree with each other; the first pair that does
    /// not (a torn write) and everything after it is the tail to drop.
    private static func completeFragments(_ file: borrowing FileDescriptor, boxes: ArraySlice<RootBox>, hasAudio: Bool) throws -> [Fragment] {
        var fragments: [Fragment] = []
        var index = boxes.startIndex
        while index + 1 < boxes.endIndex, boxes[index].type == "moof", boxes[index + 1].type == "mdat" {
            let moof = boxes[index], mdat = boxes[index + 1]
            guard moof.headerSize == 8, moof.size <= fragmentLimit else { break }
            // Read errors end recovery; only bytes that do not parse count as the torn tail.
            let bytes = try moof.read(file, limit: fragmentLimit)
            guard let runs = try? MovieFragmentBox.read(bytes, mdatHeaderSize: mdat.headerSize,
                                                       mdatPayloadSize: mdat.payloadSize),
                  runs.count == 1 || hasAudio
            else { break }
            fragments.append(Fragment(moofOffset: moof.offset, mdatOffset: mdat.offset, mdatHeaderSize: mdat.headerSize,
                                      samples: runs[0].samples, audioSamples: runs.count > 1 ? runs[1].samples : []))
            index += 2
        }
        return fragments
    }

    /// Sample count and duration if `last` is a final moov that parses; nil for anything else
    /// (a torn moov being appended when the crash came is cut off like a torn fragment).
    private static func finalMovie(_ file: borrowing FileDescriptor, _ last: RootBox) throws -> MovieBox.FinalSummary? {
        guard last.type == "moov", last.size <= finalMovieLimit else { return nil }
        let bytes = try last.read(file, limit: finalMovieLimit)
        return try? MovieBox.readFinal(bytes)
    }

    /// A file whose final moov is durable: retypes whatever moof or journal moov a crash left
    /// untouched (nothing, for a cleanly finished file) and hashes it as it is.
    private static func completeFinalized(_ path: String, _ file: borrowing FileDescriptor, boxes: [RootBox],
                                          movie: MovieBox.FinalSummary) throws -> FinalizedMP4 {
        let leftovers = boxes.dropLast().indices.filter { $0 >= 2 && ["moov", "moof"].contains(boxes[$0].type) }
        var finished = boxes
        if !leftovers.isEmpty {
            try MP4Error.io("finish finalizing \(path)") {
                for index in leftovers { try file.writeAll(JournalLayout.retiredType, at: boxes[index].offset + 4) }
                try file.sync()
            }
            for index in leftovers {
                let box = boxes[index]
                finished[index] = RootBox(type: "free", offset: box.offset, size: box.size, headerSize: box.headerSize)
            }
        }
        return FinalizedMP4(path: path, reserve: boxes[1].offset..<boxes[1].end,
                            bmffHash: try MP4Error.io("hash \(path)") { try BMFFHasher.hash(fileAt: path) },
                            duration: Double(movie.duration) / Double(FragmentedMP4Writer.timescale),
                            sampleCount: movie.sampleCount, size: boxes.last!.end, droppedBytes: 0,
                            audioDuration: movie.audioDuration.map { Double($0) / Double(AudioTrack.timescale) })
    }
}
