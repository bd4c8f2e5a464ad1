import Glibc
@testable import LensCamera
import LensContract
@testable import LensCore
@testable import LensDaemon
@testable import LensMedia
@testable import LensStorage
import LensSystem
import XCTest

/// Every kind of every layer's error reaches the client under a named D-Bus error; the tables
/// below list each kind once, so a kind added to a layer fails here until it is given a name.
final class LensErrorMappingTests: XCTestCase {
    private func name(_ error: Error) -> Lens1.ErrorName {
        LensError.from(error).name
    }

    func testEveryStorageErrorKindHasItsName() {
        let expected: [StorageError.Kind: Lens1.ErrorName] = [
            .notFound: .notFound, .invalidArgument: .invalidArgument, .full: .captureDisabled, .io: .internal,
        ]
        XCTAssertEqual(Set(expected.keys), Set(StorageError.Kind.allCases))
        for (kind, wanted) in expected { XCTAssertEqual(name(StorageError(kind, "m")), wanted, "\(kind)") }
        XCTAssertEqual(name(StorageError(SystemError("write", errno: .noSpace), while: "storing")), .captureDisabled)
    }

    func testEveryMP4ErrorKindHasItsName() {
        let expected: [MP4Error.Kind: Lens1.ErrorName] = [
            .invalidArgument: .cameraSessionFailed, .notLensdFile: .internal, .malformed: .internal,
            .noCompleteFragment: .internal, .finished: .internal, .io: .internal,
        ]
        XCTAssertEqual(Set(expected.keys), Set(MP4Error.Kind.allCases))
        for (kind, wanted) in expected { XCTAssertEqual(name(MP4Error(kind, "m")), wanted, "\(kind)") }
        // A full disk while recording is the storage reason, whichever call found it.
        for code in [ENOSPC, EDQUOT] {
            XCTAssertEqual(name(MP4Error(SystemError("pwrite", errno: Errno(rawValue: code)), while: "writing a fragment")), .captureDisabled)
        }
    }

    func testEveryAudioErrorKindHasItsName() {
        let expected: [AudioError.Kind: Lens1.ErrorName] = [
            .permissionDenied: .microphonePermissionDenied, .deviceUnavailable: .captureDisabled, .failed: .internal,
        ]
        XCTAssertEqual(Set(expected.keys), Set(AudioError.Kind.allCases))
        for (kind, wanted) in expected { XCTAssertEqual(name(AudioError(kind, "m")), wanted, "\(kind)") }
    }

    func testEveryCameraErrorHasItsName() {
        let cases: [(CameraError, Lens1.ErrorName)] = [
            (.unsupported("m"), .unsupported), (.invalidArgument("m"), .invalidArgument),
            (.permissionDenied("m"), .cameraPermissionDenied), (.busy("m"), .busy),
            (.failed("m"), .cameraSessionFailed), (.focusFailed("m"), .setFocusFailed),
        ]
        for (error, wanted) in cases { XCTAssertEqual(name(error), wanted, "\(error)") }
        XCTAssertEqual(name(VideoRecordingError.noFrames), .cameraSessionFailed)
    }

    /// The message a client reads is the layer's own sentence, not a type dump.
    func testTheMessageIsTheLayersSentence() {
        XCTAssertEqual(LensError.from(StorageError(.notFound, "no such result")).busError.message, "no such result")
        XCTAssertEqual(LensError.from(AudioError(.failed, "the device stalled")).busError.message, "the device stalled")
    }
}
