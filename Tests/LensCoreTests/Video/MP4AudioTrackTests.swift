import C2PA
import Foundation
import LensCore
import LensCrypto
import LensMedia
import LensTestSupport
import XCTest

/// An Opus track beside the video: one traf per track in every fragment, both tracks' stbl
/// after finalizing in place, the bmff hash and the signature over the sound too, and recovery
/// keeping both. FFmpeg, c2pa-python and a Python box lister judge.
final class MP4AudioTrackTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private let tone = 1000.0

    override func setUpWithError() throws {
        directory = try temporaryDirectory(prefix: "lensd-mp4-audio")
    }

    func testAnOpusTrackPlaysBesideTheVideoForItsDuration() throws {
        let path = directory.file("clip.mp4").path
        let finished = try writeJournal(at: path, seconds: 3).writer.finish()
        XCTAssertEqual(finished.duration, 3, accuracy: 1e-9)
        XCTAssertEqual(finished.audioDuration ?? 0, 3, accuracy: 1e-9)
        XCTAssertEqual(try MP4Oracles.layout(path).bmffHash, finished.bmffHash)
        XCTAssertEqual(try MP4Oracles.rootTypes(path), ["ftyp", "free", "free"] + Array(repeating: ["free", "mdat"], count: 3).flatMap { $0 } + ["moov"])
        try assertPlays(path, seconds: 3)
    }

    func testSignedWithSoundIsTrustedAndAFlippedSoundByteIsInvalid() throws {
        let pki = try TestPKI.make(in: directory.url)
        let path = directory.file("signed.mp4").path
        let finished = try writeJournal(at: path, seconds: 2).writer.finish()
        let signer = try KeySigner(keyPEM: try String(contentsOf: pki.key, encoding: .utf8),
                                   chainPEM: try String(contentsOf: pki.chain, encoding: .utf8))
        try VideoSigning(signer: signer, generator: ClaimGeneratorInfo(name: "lensd-tests", version: "0"))
            .sign(finished, facts: VideoSigning.Facts(startTime: Date(), make: "lensd", model: "test muxer", isSynthetic: true,
                                                      digitalZoomRatio: nil), location: nil)
        let url = URL(fileURLWithPath: path)
        try ReferenceValidator.assertTrusted(url, anchors: [pki.root])
        let anchors = try Certificate.parsePEM(try String(contentsOf: pki.root, encoding: .utf8))
        XCTAssertEqual(try Verifier(trustAnchors: anchors).verify(fileAt: path).state, .trusted)
        try assertPlays(path, seconds: 2)

        // A byte in the middle of the second fragment's first sound packet, where FFmpeg finds it.
        let packet = try soundPackets(url)[50]
        let file = try FileHandle(forUpdating: url)
        try file.seek(toOffset: UInt64(packet.position + packet.size / 2))
        let byte = try file.read(upToCount: 1)![0]
        try file.seek(toOffset: UInt64(packet.position + packet.size / 2))
        try file.write(contentsOf: [byte ^ 0x01])
        try file.close()
        XCTAssertEqual(try ReferenceValidator.verdict(file: url, anchors: [pki.root]).validationState, "Invalid")
        XCTAssertEqual(try Verifier(trustAnchors: anchors).verify(fileAt: path).state, .invalid)
    }

    func testAJournalCutInTheSoundOfAFragmentRecoversBothTracksToTheFragmentBefore() throws {
        let path = directory.file("crash.mp4").path
        let ends = try writeJournal(at: path, seconds: 3).ends
        // Inside the third fragment's sound: the last 100 bytes of its mdat.
        XCTAssertEqual(truncate(path, off_t(ends[2] - 100)), 0)
        let recovered = try MP4Recovery.finalize(path: path)
        XCTAssertEqual(recovered.duration, 2, accuracy: 1e-9)
        XCTAssertEqual(recovered.audioDuration ?? 0, 2, accuracy: 1e-9)
        XCTAssertEqual(recovered.droppedBytes, ends[2] - 100 - ends[1])
        XCTAssertEqual(try MP4Oracles.layout(path).bmffHash, recovered.bmffHash)
        try assertPlays(path, seconds: 2)
    }

    /// `seconds` fragments of 30 H.264 frames (x264 test pattern) and 50 Opus packets of the tone each, left unfinished.
    private func writeJournal(at path: String, seconds: Int) throws -> (writer: FragmentedMP4Writer, ends: [Int]) {
        let h264 = directory.file("source.h264")
        try MP4TestMedia.encodeH264(seconds: seconds, to: h264.path)
        let stream = AnnexBStream(Array(try Data(contentsOf: h264)), frameTicks: MP4TestMedia.frameTicks)
        let sound = try AudioTestMedia.opusTone(frequency: tone, packets: 50 * seconds)
        let writer = try FragmentedMP4Writer(path: path, track: VideoTrack(format: .h264(sps: stream.sps, pps: stream.pps), width: 320, height: 240),
                                             audio: AudioTrack(channels: 1, preSkip: sound.preSkip),
                                             creationTime: Date(timeIntervalSince1970: 1_700_000_000))
        var ends: [Int] = []
        for second in 0..<seconds {
            try writer.appendFragment(Array(stream.accessUnits[(30 * second)..<(30 * second + 30)]),
                                      audio: Array(sound.packets[(50 * second)..<(50 * second + 50)]))
            ends.append(writer.size)
        }
        return (writer, ends)
    }

    private func assertPlays(_ path: String, seconds: Double, line: UInt = #line) throws {
        let url = URL(fileURLWithPath: path)
        let video = try FFprobeReport.read(url)
        XCTAssertEqual(video.frames, Int(seconds) * 30, line: line)
        XCTAssertEqual(video.decodeErrors, "", line: line)
        guard let sound = try AudioProbe.read(url) else { return XCTFail("no sound stream", line: line) }
        XCTAssertEqual(sound.codec, "opus", line: line)
        XCTAssertEqual(sound.channels, 1, line: line)
        XCTAssertEqual(sound.duration, seconds, accuracy: 0.02, line: line)  // ± one 20 ms packet
        XCTAssertEqual(sound.decodeErrors, "", line: line)
        // The decoder drops the pre-skip: what comes out is the sound that went in.
        XCTAssertEqual(Double(sound.samples.count), seconds * 48_000, accuracy: 960, line: line)
        let dominant = sound.dominantFrequency()
        XCTAssertEqual(dominant.frequency, tone, accuracy: 10, line: line)
        XCTAssertGreaterThan(dominant.ratio, 100, line: line)
    }

    /// Byte position and size of every sound packet, as ffprobe reads them.
    private func soundPackets(_ url: URL) throws -> [(position: Int, size: Int)] {
        let r = try runProcess(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pos,size",
                                "-of", "csv=p=0", url.path])
        guard r.status == 0 else { throw TestToolError("ffprobe: " + String(decoding: r.stderr, as: UTF8.self)) }
        return String(decoding: r.stdout, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",").compactMap { Int($0) }
            return fields.count == 2 ? (fields[1], fields[0]) : nil
        }
    }
}
