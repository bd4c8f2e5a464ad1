import Glibc
@testable import LensCore
@testable import LensDaemon
import XCTest

/// Every kind of every layer's error reaches the client under a named D-Bus error; the tables
/// below list each kind once, so a kind added to a layer fails here until it is given a name.
final class LensErrorMappingTests: XCTestCase {
    private func name(_ error: Error) -> String {
        String(LensError.from(error).busError.name.dropFirst(LensError.prefix.count))
    }

    func testEveryStorageErrorKindHasItsName() {
        let expected: [StorageError.Kind: String] = [
            .notFound: "NotFound", .invalidArgument: "InvalidArgument", .full: "CaptureDisabled", .io: "Internal",
        ]
        XCTAssertEqual(Set(expected.keys), Set(StorageError.Kind.allCases))
        for (kind, wanted) in expected { XCTAssertEqual(name(StorageError(kind, "m")), wanted, "\(kind)") }
        XCTAssertEqual(name(StorageError(Syscalls.Failure(call: "write", path: nil, errno: ENOSPC), while: "storing")), "CaptureDisabled")
    }

    func testEveryMP4ErrorKindHasItsName() {
        let expected: [MP4Error.Kind: String] = [
            .invalidArgument: "CameraSessionFailed", .notLensdFile: "Internal", .malformed: "Internal",
            .noCompleteFragment: "Internal", .finished: "Internal", .io: "Internal",
        ]
        XCTAssertEqual(Set(expected.keys), Set(MP4Error.Kind.allCases))
        for (kind, wanted) in expected { XCTAssertEqual(name(MP4Error(kind, "m")), wanted, "\(kind)") }
        // A full disk while recording is the storage reason, whichever call found it.
        for code in [ENOSPC, EDQUOT] {
            XCTAssertEqual(name(MP4Error(Syscalls.Failure(call: "pwrite", path: nil, errno: code), while: "writing a fragment")), "CaptureDisabled")
        }
    }

    func testEveryAudioErrorKindHasItsName() {
        let expected: [AudioError.Kind: String] = [
            .permissionDenied: "MicrophonePermissionDenied", .deviceUnavailable: "CaptureDisabled", .failed: "Internal",
        ]
        XCTAssertEqual(Set(expected.keys), Set(AudioError.Kind.allCases))
        for (kind, wanted) in expected { XCTAssertEqual(name(AudioError(kind, "m")), wanted, "\(kind)") }
    }

    func testEveryCameraErrorHasItsName() {
        let cases: [(CameraError, String)] = [
            (.unsupported("m"), "Unsupported"), (.invalidArgument("m"), "InvalidArgument"),
            (.permissionDenied("m"), "CameraPermissionDenied"), (.busy("m"), "Busy"),
            (.failed("m"), "CameraSessionFailed"), (.focusFailed("m"), "SetFocusFailed"),
        ]
        for (error, wanted) in cases { XCTAssertEqual(name(error), wanted, "\(error)") }
        XCTAssertEqual(name(VideoRecordingError.noFrames), "CameraSessionFailed")
    }

    /// The message a client reads is the layer's own sentence, not a type dump.
    func testTheMessageIsTheLayersSentence() {
        XCTAssertEqual(LensError.from(StorageError(.notFound, "no such result")).busError.message, "no such result")
        XCTAssertEqual(LensError.from(AudioError(.failed, "the device stalled")).busError.message, "the device stalled")
    }
}
