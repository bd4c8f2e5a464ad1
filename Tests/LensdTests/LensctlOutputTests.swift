import Foundation
import LensTestSupport
import XCTest

/// Where `-o` writes (issues 19.3 and 21.2): `-` is standard output, a directory gets NAME.jpg or
/// NAME.mp4, and `--force` replaces regular files only — a device node, FIFO or symbolic link is
/// refused before anything is captured, and left as it was.
final class LensctlOutputTests: LensdTestCase {
    func testForceNeverReplacesWhatIsNotARegularFile() throws {
        let before = try deviceNumber("/dev/full")
        let fifo = outbox.appendingPathComponent("fifo.jpg")
        XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
        let real = outbox.appendingPathComponent("real.jpg")
        try Data("keep".utf8).write(to: real)
        let link = outbox.appendingPathComponent("link.jpg")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: real.path)
        let dangling = outbox.appendingPathComponent("dangling.jpg")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: outbox.appendingPathComponent("nowhere").path)

        let refusals: [(target: String, force: Bool, says: String)] = [
            ("/dev/full", true, "/dev/full is a character device, not a regular file"),
            ("/dev/stdout", true, "/dev/stdout is a symbolic link"),
            (fifo.path, true, "is a FIFO, not a regular file"),
            (link.path, true, "is a symbolic link"),
            (dangling.path, false, "is a dangling symbolic link"),
        ]
        for refusal in refusals {
            let result = try lensctl.expect(1, ["capture", "-o", refusal.target] + (refusal.force ? ["--force"] : []))
            XCTAssertTrue(result.stderr.contains(refusal.says), "\(refusal.target): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one readable line: \(result.stderr)")
            XCTAssertEqual(result.stdout, "")
        }
        XCTAssertEqual(storedPhotos(), [], "a refused target cost a photo")
        XCTAssertEqual(try deviceNumber("/dev/full"), before, "/dev/full was replaced")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), real.path)
        XCTAssertEqual(try Data(contentsOf: real), Data("keep".utf8))
        XCTAssertNotNil(try? FileManager.default.destinationOfSymbolicLink(atPath: dangling.path))
        var info = stat()
        XCTAssertEqual(lstat(fifo.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO)

        // A regular file is still replaced with --force.
        try lensctl.expect(0, ["capture", "-o", real.path, "--force"])
        XCTAssertNotEqual(try Data(contentsOf: real), Data("keep".utf8))
    }

    func testDashIsStandardOutputAndADirectoryGetsTheName() throws {
        let anchor = try client().trustAnchorFile(in: tmp)
        let piped = try runProcess([try LensctlRunner.binary, "capture", "-o", "-", "--bus", bus.address])
        XCTAssertEqual(piped.status, 0, String(decoding: piped.stderr, as: UTF8.self))
        XCTAssertEqual(Array(piped.stdout.prefix(2)), [0xFF, 0xD8], "standard output does not hold the JPEG")
        XCTAssertTrue(String(decoding: piped.stderr, as: UTF8.self).contains("path:     -"), "the result goes to stderr")
        let saved = tmp.file("piped.jpg")
        try piped.stdout.write(to: saved)
        _ = try ReferenceValidator.assertTrusted(saved, anchors: [anchor])
        XCTAssertFalse(FileManager.default.fileExists(atPath: "-"))

        let json = try lensctl.expect(0, ["capture", "-o", outbox.path, "--json"])
        let name = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["name"] as? String)
        let inDirectory = outbox.appendingPathComponent("\(name).jpg")
        _ = try ReferenceValidator.assertTrusted(inDirectory, anchors: [anchor])

        let video = try runProcess([try LensctlRunner.binary, "record", "--duration", "1", "-o", "-", "--bus", bus.address])
        XCTAssertEqual(video.status, 0, String(decoding: video.stderr, as: UTF8.self))
        XCTAssertEqual(String(decoding: video.stdout.dropFirst(4).prefix(4), as: UTF8.self), "ftyp", "standard output does not hold the MP4")
        let clip = tmp.file("piped.mp4")
        try video.stdout.write(to: clip)
        _ = try ReferenceValidator.assertTrusted(clip, anchors: [anchor])
    }

    private func deviceNumber(_ path: String) throws -> [UInt] {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw TestToolError("lstat \(path)") }
        return [UInt(info.st_mode), UInt(info.st_rdev), UInt(info.st_ino)]
    }
}
