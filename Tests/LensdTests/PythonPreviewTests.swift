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

    func testWithoutTheClaimItFailsWithTheDaemonsReason() throws {
        let c = try client()
        let holder = try c.openSession()
        try c.call(holder, "StartCaptureSession")
        let r = try runProcess([try TestTools.python(), example, "--bus", bus.address, "--frames", "1", "-o", outbox.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(String(decoding: r.stderr, as: UTF8.self).contains("org.lensd.Lens1.Error.Busy"))
    }
}
