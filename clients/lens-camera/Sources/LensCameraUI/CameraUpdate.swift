import GtkKit
import LensClient

/// What the window learns about the camera, always on the main context.
enum CameraUpdate {
    /// No session: why, in words, and what the user can do about it. Retrying meanwhile.
    case unavailable(title: String, advice: String)
    case connected(CameraSetup)
    case previewFrame(Texture)
    case gate(enabled: Bool, reasons: [GateReason])
    /// The current fix's accuracy radius in metres; nil without a fix.
    case location(accuracy: Double?)
    case thumbnail(name: String, image: Texture?, kind: ResultKind)
    case stored(name: String, verdict: Verdict, file: String?)
    /// A result deleted from lensd (and its kept file moved to the trash).
    case deleted(name: String)
    case zoom(Double)
    case focused(LensPoint)
    case device(LensCaptureDevice)
    case flash(LensFlashMode)
    case mode(LensCameraMode)
    case recordingStarted
    case recordingStopped
    case recordingProgress(seconds: Double)
    case faceDetected(FaceOverlay)
    case faceCandidateSelection(instruction: String)
    case faceFinished
    case faceStopped
    case error(String)
}

/// What face mode draws for one processed frame: the instruction in the user's language, the
/// face found (normalized left, top, right, bottom) and whether it is good enough.
struct FaceOverlay {
    var instruction: String
    var face: (left: Double, top: Double, right: Double, bottom: Double)?
    var isValid: Bool
}

/// What a new session starts with.
struct CameraSetup {
    var mode: LensCameraMode
    var device: LensCaptureDevice?
    var captureEnabled: Bool
    var reasons: [GateReason]
    var locationAccuracy: Double?
}

enum ResultKind: Equatable {
    case photo
    case video(duration: Double)
}

/// What lensd's verifier (the C2PA module lensctl verify uses) says of a fetched result.
enum Verdict {
    case trusted(Provenance)
    /// Signed and intact, but not by a certificate the trust anchor vouches for.
    case valid(Provenance)
    case invalid(String)
    /// lensd stored it without a signature (a video lensd could not sign).
    case unsigned(String)
    /// The app could not write its copy (lensd still holds the result).
    case notKept(String)
}

/// Who signed a result, when and where it was taken, with which device (its C2PA manifest).
struct Provenance {
    var signer: String?
    var captured: String?
    var location: String?
    var device: String?

    /// One "what: value" line each, for the viewer.
    var lines: [String] {
        [tr("Signed by: %@", signer ?? tr("unknown")), tr("Taken: %@", captured ?? tr("not recorded")),
         tr("Where: %@", location ?? tr("no location recorded")), tr("Device: %@", device ?? tr("not recorded"))]
    }
}

extension Verdict {
    /// The badge on a result (its text and style class) and the sentence that says what it means.
    var badge: (text: String, style: String, words: String) {
        switch self {
        case .trusted: ("✔", "verified", tr("Verified: signed by a device this lensd trusts"))
        case .valid: ("✔?", "unsigned", tr("Signed, but not by a device this lensd trusts"))
        case .invalid(let why): ("✘", "invalid", tr("Verification failed: %@", why))
        case .unsigned(let why): (tr("unsigned"), "unsigned", tr("Not signed: %@", why))
        case .notKept(let why): ("!", "invalid", tr("Not kept: %@", why))
        }
    }

    var provenance: Provenance? {
        switch self {
        case .trusted(let provenance), .valid(let provenance): provenance
        default: nil
        }
    }
}
