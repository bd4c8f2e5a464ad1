@testable import LensDaemon
import XCTest

/// The capture core's transitions and what each emits, without a bus: sessions are numbers.
final class CaptureMachineTests: XCTestCase {
    private var machine = CaptureMachine()

    private func claimed(_ session: Int) throws {
        XCTAssertEqual(try machine.claim(for: session, cameraAvailable: true), [.holderChanged(session)])
    }

    private func refusal(_ body: () throws -> Void) -> CaptureMachine.Refusal? {
        do { try body() } catch { return error as? CaptureMachine.Refusal }
        return nil
    }

    override func tearDown() {
        XCTAssertEqual(machine.faults, [], "a ticket was ended twice")
    }

    func testAClaimIsHeldByOneSessionUntilItIsReleased() throws {
        XCTAssertEqual(machine.phase, .idle)
        try claimed(1)
        XCTAssertEqual(machine.phase, .claimed(1))
        XCTAssertEqual(try machine.claim(for: 1, cameraAvailable: true), [], "claiming again is no change")
        XCTAssertEqual(refusal { _ = try machine.claim(for: 2, cameraAvailable: true) }, .heldBy(1))
        XCTAssertEqual(machine.release(2), [], "a session releases only its own claim")
        XCTAssertEqual(machine.release(1), [.holderChanged(nil), .claimEnded(1), .offerClaim])
        XCTAssertEqual(machine.phase, .idle)
        XCTAssertEqual(machine.release(1), [], "releasing is idempotent")
        try claimed(2)
    }

    func testNoCameraNoClaim() {
        XCTAssertEqual(refusal { _ = try machine.claim(for: 1, cameraAvailable: false) }, .noCamera)
        XCTAssertEqual(machine.phase, .idle)
    }

    /// A session that closes leaves the queue for the camera before its claim ends.
    func testAnEndedSessionLeavesTheQueueThenReleases() throws {
        XCTAssertEqual(machine.endSession(3), [.sessionEnded(3)], "a session without the claim only leaves the queue")
        try claimed(1)
        XCTAssertEqual(machine.endSession(1), [.sessionEnded(1), .holderChanged(nil), .claimEnded(1), .offerClaim])
    }

    func testARecordingNeedsTheClaimAndIsOneAtATime() throws {
        XCTAssertEqual(refusal { _ = try machine.startRecording("a", by: 1) }, .notClaimed)
        XCTAssertEqual(refusal { try machine.requireMayRecord(1) }, .notClaimed)
        try claimed(1)
        XCTAssertEqual(try machine.startRecording("a", by: 1), [.recordingChanged(1, recording: true)])
        XCTAssertEqual(machine.phase, .recording(1, name: "a"))
        XCTAssertEqual(refusal { _ = try machine.startRecording("b", by: 1) }, .recordingBy(1))
        XCTAssertEqual(refusal { _ = try machine.stopRecording(by: 2) }, .notRecording)
        XCTAssertEqual(try machine.stopRecording(by: 1), [.stopRecording(name: "a")])
        XCTAssertEqual(try machine.stopRecording(by: 1), [], "stopping is idempotent")
        XCTAssertEqual(machine.recordingEnded("other", kept: true).effects, [], "only the recording under way ends")
        let ended = machine.recordingEnded("a", kept: true)
        XCTAssertEqual(ended.effects, [.recordingChanged(1, recording: false), .claimActivity])
        XCTAssertEqual(machine.phase, .claimed(1))
        let ticket = try XCTUnwrap(ended.ticket, "a recording that kept frames is published under a ticket")
        XCTAssertEqual(ticket.kind, .video)
        XCTAssertEqual(ticket.name, "a")
        XCTAssertEqual(machine.publishing, [ticket])
        XCTAssertEqual(machine.endCapture(ticket), [.claimActivity])
        XCTAssertEqual(machine.publishing, [])
    }

    func testARecordingThatKeptNothingHasNothingToPublish() throws {
        try claimed(1)
        _ = try machine.startRecording("a", by: 1)
        XCTAssertNil(machine.recordingEnded("a", kept: false).ticket)
        XCTAssertFalse(machine.claimIsWorking)
    }

    /// Ending the claim stops the recording, which still ends (and is published) after it.
    func testReleasingWhileRecordingStopsTheRecording() throws {
        try claimed(1)
        _ = try machine.startRecording("a", by: 1)
        XCTAssertEqual(machine.release(1), [.holderChanged(nil), .claimEnded(1), .stopRecording(name: "a"), .offerClaim])
        XCTAssertEqual(machine.phase, .recording(1, name: "a"))
        XCTAssertTrue(machine.claimIsWorking)
        let ended = machine.recordingEnded("a", kept: true)
        XCTAssertEqual(ended.effects, [.recordingChanged(1, recording: false), .claimActivity])
        XCTAssertEqual(machine.phase, .idle)
        _ = machine.endCapture(try XCTUnwrap(ended.ticket))
    }

    /// The machine decides every refusal a recording brings: no camera switch, no mode change,
    /// and no zoom where it crops photos only — for the recording session only.
    func testARecordingRefusesWhatItWouldNotSurvive() throws {
        try claimed(1)
        _ = try machine.startRecording("a", by: 1)
        for change in [CaptureMachine.Refusal.Change.camera, .mode, .zoom] {
            XCTAssertEqual(refusal { try machine.requireNotRecording(1, toChange: change) }, .recordingUnderWay(change))
            XCTAssertNil(refusal { try machine.requireNotRecording(2, toChange: change) })
        }
        XCTAssertNil(refusal { try machine.requireClaim(by: 1) })
        XCTAssertEqual(refusal { try machine.requireClaim(by: 2) }, .notClaimed)
    }

    func testAttachmentsBelongToTheClaimOneOfEachAtATime() throws {
        XCTAssertEqual(refusal { _ = try machine.attach(.preview, by: 1) }, .notClaimed)
        try claimed(1)
        XCTAssertEqual(try machine.attach(.preview, by: 1), [.attached(.preview, 1)])
        XCTAssertEqual(refusal { _ = try machine.attach(.preview, by: 1) }, .alreadyAttached(.preview))
        XCTAssertEqual(refusal { try machine.requireDetached(.preview) }, .alreadyAttached(.preview))
        XCTAssertEqual(try machine.attach(.faceAutoCapture, by: 1), [.attached(.faceAutoCapture, 1)])
        XCTAssertTrue(machine.claimIsWorking, "a face auto-capture works the claim")
        XCTAssertEqual(machine.detach(.faceAutoCapture), [.detached(.faceAutoCapture, 1, failure: nil), .claimActivity])
        XCTAssertFalse(machine.claimIsWorking, "a preview alone works it only while read (its flow knows)")
        XCTAssertEqual(machine.detach(.faceAutoCapture), [], "what is not attached does not end")
        XCTAssertEqual(machine.release(1), [.holderChanged(nil), .detached(.preview, 1, failure: nil), .claimEnded(1), .offerClaim],
                       "attachments end with the claim, before it")
        XCTAssertEqual(machine.attachments, [])
    }

    func testFramesThatFailEndEveryAttachmentSayingWhy() throws {
        try claimed(1)
        _ = try machine.attach(.preview, by: 1)
        _ = try machine.attach(.faceAutoCapture, by: 1)
        let failure = LensError.cameraSessionFailed("the camera stopped streaming")
        XCTAssertEqual(machine.framesFailed(failure), [.detached(.preview, 1, failure: failure), .claimActivity,
                                                       .detached(.faceAutoCapture, 1, failure: failure), .claimActivity])
        XCTAssertEqual(machine.phase, .claimed(1), "the claim itself stays")
    }

    func testTicketsEndExactlyOnceAndNoteADoubleEnd() throws {
        let photo = machine.beginCapture(.photo, name: "p", session: 1)
        let recovered = machine.beginCapture(.video, name: "v", session: nil)
        XCTAssertNotEqual(photo.id, recovered.id)
        XCTAssertTrue(machine.claimIsWorking)
        XCTAssertEqual(machine.publishing, [recovered])
        XCTAssertEqual(machine.endCapture(photo), [.claimActivity])
        XCTAssertEqual(machine.endCapture(photo), [], "a second end emits nothing")
        XCTAssertEqual(machine.faults.count, 1)
        XCTAssertTrue(machine.faults[0].contains("p"), machine.faults[0])
        machine = CaptureMachine()  // the fault was the point; tearDown checks the next ones
        _ = recovered
    }

    func testStoppingWithNothingUnderWaySettlesAtOnce() {
        XCTAssertEqual(machine.stop(), [.settled])
        XCTAssertEqual(machine.phase, .settling)
    }

    /// A stop waits for the recording to end and for every ticket: photos and finished videos.
    func testStoppingWaitsForTheRecordingAndEveryTicket() throws {
        try claimed(1)
        let photo = machine.beginCapture(.photo, name: "p", session: 1)
        _ = try machine.startRecording("a", by: 1)
        XCTAssertEqual(machine.stop(), [.stopRecording(name: "a")])
        XCTAssertEqual(machine.phase, .settling)
        let ended = machine.recordingEnded("a", kept: true)
        XCTAssertEqual(ended.effects, [.recordingChanged(1, recording: false), .claimActivity],
                       "the finished video's ticket keeps it from settling")
        XCTAssertEqual(machine.endCapture(photo), [.claimActivity])
        XCTAssertEqual(machine.endCapture(try XCTUnwrap(ended.ticket)), [.claimActivity, .settled])
    }

    func testTicketsKeepTheClaimWorking() throws {
        try claimed(1)
        let ticket = machine.beginCapture(.photo, name: "p", session: 1)
        XCTAssertTrue(machine.claimIsWorking)
        XCTAssertEqual(machine.endCapture(ticket), [.claimActivity])
        XCTAssertFalse(machine.claimIsWorking)
    }
}
