import Foundation
import LensTestSupport
import XCTest

/// lensd's per-user session cap (max-sessions-per-user, 4) does not fail a fifth one-shot command
/// of the same user: it waits for a session within --timeout, as it waits for the camera.
final class LensctlSessionSlotTests: LensdTestCase {
    func testFiveConcurrentCapturesOfOneUserAllGetTheirPhoto() throws {
        // The test holds the camera: each capture opens its session and waits in line, so a fifth
        // finds the member's four sessions open.
        let holder = try client()
        let held = try holder.openSession()
        _ = try holder.call(held, "StartCaptureSession")

        let runs = try (0..<5).map { index -> (process: Process, stderr: URL, photo: URL) in
            let photo = outbox.appendingPathComponent("photo-\(index).jpg")
            let stderr = tmp.file("stderr-\(index)")
            XCTAssertTrue(FileManager.default.createFile(atPath: stderr.path, contents: nil))
            let process = Process()
            let argv = TestUsers.asUser(TestUsers.member, [try LensctlRunner.binary, "capture", "-o", photo.path,
                                                           "--timeout", "60", "--bus", bus.address])
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")  // argv[0] is setpriv, found on PATH
            process.arguments = argv
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: stderr)
            try process.run()
            return (process, stderr, photo)
        }
        defer { for run in runs where run.process.isRunning { run.process.terminate() } }
        func said(_ text: String) -> Int {
            runs.filter { ((try? String(contentsOf: $0.stderr, encoding: .utf8)) ?? "").contains(text) }.count
        }
        try waitUntil("four captures in line for the camera, one waiting for a session") {
            said("waiting for the camera") == 4 && said("waiting for a session") == 1
        }
        let waiting = try XCTUnwrap(runs.first { ((try? String(contentsOf: $0.stderr, encoding: .utf8)) ?? "").contains("waiting for a session") })
        let note = try String(contentsOf: waiting.stderr, encoding: .utf8)
        XCTAssertTrue(note.contains("already has 4 sessions (max-sessions-per-user)"), note)

        _ = try holder.call(held, "StopCaptureSession")
        for run in runs {
            run.process.waitUntilExit()
            XCTAssertEqual(run.process.terminationStatus, 0, (try? String(contentsOf: run.stderr, encoding: .utf8)) ?? "")
            XCTAssertTrue(try Data(contentsOf: run.photo).starts(with: [0xff, 0xd8]), run.photo.path)
        }
    }

    /// Past --timeout the wait for a session ends in exit 5, saying why.
    func testASessionThatNeverFreesIsATimeout() throws {
        let holder = try client()
        for _ in 0..<4 { _ = try holder.openSession() }
        let late = try lensctl.expect(5, ["capture", "-o", tmp.file("late.jpg").path, "--timeout", "1"])
        XCTAssertTrue(late.stderr.contains("gave up after 1 s waiting for a session"), late.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.file("late.jpg").path))
    }
}
