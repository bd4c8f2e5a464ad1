@testable import LensDaemon
import XCTest

/// The capture core's transitions and what each emits, without a bus: sessions are numbers.
final class CaptureMachineTests: XCTestCase {
    private var machine = CaptureMachine()

    private func claimed(_ session: Int) throws {
        XCTAssertEqual(try machine.claim(for: session, cameraAvailable: true), [.holderChanged(session)])
    }

    func testAClaimIsHeldByOneSessionUntilItIsReleased() throws {
        XCTAssertEqual(machine.phase, .idle)
        try claimed(1)
        XCTAssertEqual(machine.phase, .claimed(1))
        XCTAssertEqual(try machine.claim(for: 1, cameraAvailable: true), [], "claiming again is no change")
        XCTAssertThrowsError(try machine.claim(for: 2, cameraAvailable: true)) {
            XCTAssertEqual($0 as? CaptureMachine.Refusal, .heldBy(1))
        }
        XCTAssertEqual(machine.release(2), [], "a session releases only its own claim")
        XCTAssertEqual(machine.release(1), [.holderChanged(nil), .claimEnded(1), .offerClaim])
        XCTAssertEqual(machine.phase, .idle)
        XCTAssertEqual(machine.release(1), [], "releasing is idempotent")
        try claimed(2)
    }

    func testNoCameraNoClaim() {
        XCTAssertThrowsError(try machine.claim(for: 1, cameraAvailable: false)) {
            XCTAssertEqual($0 as? CaptureMachine.Refusal, .noCamera)
        }
        XCTAssertEqual(machine.phase, .idle)
    }

    func testARecordingNeedsTheClaimAndIsOneAtATime() throws {
        XCTAssertThrowsError(try machine.startRecording("a", by: 1)) { XCTAssertEqual($0 as? CaptureMachine.Refusal, .notClaimed) }
        try claimed(1)
        XCTAssertEqual(try machine.startRecording("a", by: 1), [.recordingChanged(1, recording: true)])
        XCTAssertEqual(machine.phase, .recording(1, name: "a"))
        XCTAssertThrowsError(try machine.startRecording("b", by: 1)) {
            XCTAssertEqual($0 as? CaptureMachine.Refusal, .recordingBy(1))
        }
        XCTAssertThrowsError(try machine.stopRecording(by: 2)) { XCTAssertEqual($0 as? CaptureMachine.Refusal, .notRecording) }
        XCTAssertEqual(try machine.stopRecording(by: 1), [.stopRecording(name: "a")])
        XCTAssertEqual(try machine.stopRecording(by: 1), [], "stopping is idempotent")
        XCTAssertEqual(machine.recordingEnded("other"), [], "only the recording under way ends")
        XCTAssertEqual(machine.recordingEnded("a"), [.recordingChanged(1, recording: false), .claimActivity])
        XCTAssertEqual(machine.phase, .claimed(1))
    }

    /// Ending the claim stops the recording, which still ends (and is published) after it.
    func testReleasingWhileRecordingStopsTheRecording() throws {
        try claimed(1)
        _ = try machine.startRecording("a", by: 1)
        XCTAssertEqual(machine.release(1), [.holderChanged(nil), .claimEnded(1), .stopRecording(name: "a"), .offerClaim])
        XCTAssertEqual(machine.phase, .recording(1, name: "a"))
        XCTAssertTrue(machine.claimIsWorking)
        XCTAssertEqual(machine.recordingEnded("a"), [.recordingChanged(1, recording: false), .claimActivity])
        XCTAssertEqual(machine.phase, .idle)
    }

    func testAPreviewOrFaceAutoCaptureKeepsTheClaimWorking() throws {
        try claimed(1)
        XCTAssertFalse(machine.claimIsWorking)
        _ = machine.began(.preview)
        _ = machine.began(.faceAutoCapture)
        XCTAssertEqual(machine.ended(.preview), [.claimActivity])
        XCTAssertTrue(machine.claimIsWorking)
        XCTAssertEqual(machine.ended(.preview), [], "what did not run does not end")
        _ = machine.release(1)
        XCTAssertFalse(machine.claimIsWorking, "the claim's uses end with it")
        XCTAssertEqual(machine.ended(.faceAutoCapture), [])
    }

    func testStoppingWithNothingUnderWaySettlesAtOnce() {
        XCTAssertEqual(machine.stop(), [.settled])
        XCTAssertEqual(machine.phase, .settling)
    }

    /// A stop waits for the recording to end and for every capture in flight to be published.
    func testStoppingWaitsForTheRecordingAndTheCapturesInFlight() throws {
        try claimed(1)
        _ = machine.captureStarted()
        _ = try machine.startRecording("a", by: 1)
        XCTAssertEqual(machine.stop(), [.stopRecording(name: "a")])
        XCTAssertEqual(machine.phase, .settling)
        // The finished recording goes to be signed (in flight) before its frames are said to end.
        _ = machine.captureStarted()
        XCTAssertEqual(machine.recordingEnded("a"), [.recordingChanged(1, recording: false), .claimActivity])
        XCTAssertEqual(machine.captureEnded(), [.claimActivity])
        XCTAssertEqual(machine.captureEnded(), [.claimActivity, .settled])
    }

    func testCapturesInFlightKeepTheClaimWorking() throws {
        try claimed(1)
        _ = machine.captureStarted()
        XCTAssertTrue(machine.claimIsWorking)
        XCTAssertEqual(machine.captureEnded(), [.claimActivity])
        XCTAssertFalse(machine.claimIsWorking)
    }
}
