import Foundation
import LensTestSupport
import XCTest

/// clients/python/lens_preview.py: jeepney receives the preview's pipe and saves whole frames,
/// each a JPEG at the size lensd announced, in the camera's order.
final class PythonPreviewTests: LensdTestCase {
    override var daemonArguments: [String] { super.daemonArguments + ["--synthetic-size", "640x480"] }

    private var example: String { TestTools.repoRoot.appendingPathComponent("clients/python/lens_preview.py").path }

    func testThePythonExampleSavesWholeFramesInOrder() throws {
        let directory = outbox.appendingPathComponent("frames")
        let r = try runProcess([try TestTools.python(), example, "--bus", bus.address, "--frames", "4", "--size", "320x320",
                                "-o", directory.path])
        let output = String(decoding: r.stdout, as: UTF8.self), errors = String(decoding: r.stderr, as: UTF8.self)
        XCTAssertEqual(r.status, 0, output + errors)
        XCTAssertTrue(errors.contains("4 preview frames, 320x240, UNSIGNED"), errors)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertEqual(files, ["frame-0001.jpg", "frame-0002.jpg", "frame-0003.jpg", "frame-0004.jpg"])
        for file in files {
            let size = try jpegDimensions(Array(try Data(contentsOf: directory.appendingPathComponent(file))))
            XCTAssertTrue(size == (320, 240), "\(file): \(size)")
        }
        let sequences = output.split(separator: "\n").compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("seq=") }.flatMap { UInt64($0.dropFirst(4)) }
        }
        XCTAssertEqual(sequences.count, 4, output)
        XCTAssertEqual(sequences, sequences.sorted())
        XCTAssertEqual(Set(sequences).count, 4)
    }

    /// The example's own JPEG cutting, on the streams MJPEGSplitterTests uses: an EOI's bytes in
    /// a comment, stuffed FF00, restart markers (also after a fill byte).
    func testTheExampleCutsFramesByTheJPEGSyntax() throws {
        let check = """
        import sys; sys.path.insert(0, sys.argv[1]); from lens_preview import frame_end
        sos = bytes([0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 0x3F, 0])
        def frame(comment, scan):
            return b"\\xff\\xd8\\xff\\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment + sos + scan + b"\\xff\\xd9"
        frames = [frame(b"seq=1 \\xff\\xd9", b"\\x12\\xff\\x00\\x34"), frame(b"", b"\\xff\\xd0\\x56\\xff\\xff\\xd7\\x00")]
        data, out = b"".join(frames), []
        for size in range(1, len(data) + 1):
            if (end := frame_end(data[:size])) is not None:
                out.append(data[:end]); data = data[end:]
                break
        print(out == frames[:1], frame_end(frames[1]) == len(frames[1]), frame_end(frames[1][:-1]) is None)
        """
        let r = try runProcess([try TestTools.python(), "-c", check, TestTools.repoRoot.appendingPathComponent("clients/python").path])
        XCTAssertEqual(String(decoding: r.stdout, as: UTF8.self), "True True True\n", String(decoding: r.stderr, as: UTF8.self))
    }

    func testWithoutTheClaimItFailsWithTheDaemonsReason() throws {
        let c = try client()
        let holder = try c.openSession()
        try c.call(holder, "StartCaptureSession")
        let r = try runProcess([try TestTools.python(), example, "--bus", bus.address, "--frames", "1", "-o", outbox.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(String(decoding: r.stderr, as: UTF8.self).contains("org.lensd.Lens1.Error.Busy"))
    }
}
