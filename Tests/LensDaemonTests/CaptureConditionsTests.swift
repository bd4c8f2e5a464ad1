import Foundation
@testable import LensCore
@testable import LensDaemon
@testable import LensIdentity
import XCTest

/// The capture gate's rules, and the enrollment they start from, at an injected clock: a
/// certificate's expiry is stepped past, not waited out.
final class CaptureConditionsTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lensd-conditions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: scratch)
    }

    private func conditions(enrolled: Bool = true, camera: Bool = true, policy: LocationPolicy = .optional,
                            fix: LocationFix? = nil, storageLow: Bool = false) -> CaptureConditions {
        CaptureConditions(enrolled: enrolled, cameraAvailable: camera, locationPolicy: policy, locationFix: fix, storageLow: storageLow)
    }

    /// The certificate expires a day after it was issued: one second past that, capture is
    /// disabled (reason enrollment) and the change is announced once.
    func testExpiryDisablesCaptureAndIsAnnouncedOnce() throws {
        let time = ManualClock()
        let identity = DeviceIdentity.load(IdentityConfiguration(stateDirectory: scratch, deviceName: "cam", lifetimeDays: 1),
                                           now: time.clock.wall())
        XCTAssertEqual(identity.state, .enrolled, identity.problem ?? "")
        var watch = EnrollmentWatch(announced: identity.state)
        XCTAssertNil(watch.change(of: identity, revoked: false, at: time.clock.wall()))
        XCTAssertEqual(conditions(enrolled: true).disabledReasons(accuracy: 50), [])

        let lifetime = try XCTUnwrap(identity.certificateNotAfter).timeIntervalSince(time.clock.wall())
        time.advance(by: .seconds(lifetime - 60))
        XCTAssertNil(watch.change(of: identity, revoked: false, at: time.clock.wall()), "still valid a minute before")
        time.advance(by: .seconds(61))
        let state = EnrollmentWatch.state(of: identity, revoked: false, at: time.clock.wall())
        XCTAssertEqual(state, .expired)
        XCTAssertEqual(watch.change(of: identity, revoked: false, at: time.clock.wall()), .expired)
        XCTAssertNil(watch.change(of: identity, revoked: false, at: time.clock.wall()), "announced once")
        XCTAssertEqual(conditions(enrolled: state == .enrolled).disabledReasons(accuracy: 50), [.enrollment])
    }

    func testARevokedCertificateIsRevokedWhileItIsStillValid() {
        let time = ManualClock()
        let identity = DeviceIdentity.load(IdentityConfiguration(stateDirectory: scratch, deviceName: "cam"), now: time.clock.wall())
        var watch = EnrollmentWatch(announced: identity.state)
        XCTAssertEqual(watch.change(of: identity, revoked: true, at: time.clock.wall()), .revoked)
    }

    func testEachSourceGivesItsReasonInTheFrozenOrder() {
        var all = conditions(enrolled: false, camera: false, policy: .required, fix: nil, storageLow: true)
        all.timestampProblem = "no TSA answers"
        all.microphoneProblem = "no device"
        XCTAssertEqual(all.disabledReasons(accuracy: 50), [.enrollment, .camera, .location, .storage, .timestamp, .microphone])
        XCTAssertEqual(all.disabledReasons(accuracy: 50, usesMicrophone: false), [.enrollment, .camera, .location, .storage, .timestamp],
                       "a session that turned sound off is not held up by the microphone")
        XCTAssertEqual(Set(all.explanations(accuracy: 50, enrollmentProblem: "expired").keys), Set(DisabledReason.allCases))
    }

    /// Location gates only under `required`, and only to the session's own accuracy.
    func testLocationGatesToEachSessionsAccuracy() {
        let fix = LocationFix(latitude: 52.5, longitude: 13.4, altitude: nil, horizontalAccuracy: 20, mode: .twoD, fixTime: Date(), receivedAt: Date())
        let required = conditions(policy: .required, fix: fix)
        XCTAssertEqual(required.disabledReasons(accuracy: 50), [])
        XCTAssertEqual(required.disabledReasons(accuracy: 10), [.location])
        XCTAssertTrue(required.explanations(accuracy: 10, enrollmentProblem: nil)[.location]?.contains("20 m > 10 m") == true)
        XCTAssertEqual(required.fixToRecord(accuracy: 10), nil, "a fix coarser than asked is not recorded")
        XCTAssertEqual(conditions(policy: .optional, fix: fix).disabledReasons(accuracy: 10), [])
        XCTAssertNil(conditions(policy: .never, fix: fix).fixToRecord(accuracy: 50), "never records a fix")
        XCTAssertEqual(conditions(policy: .optional, fix: fix).fixToRecord(accuracy: 50), fix)
    }
}
