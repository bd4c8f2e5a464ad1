import C2PA
import Glibc
import LensBus
import LensCamera
import LensContract
import LensCore
import LensMedia
import LensNetwork
import LensStorage

/// lensd's errors: a name of the contract (Lens1.ErrorName, org.lensd.Lens1.Error.*) and a
/// sentence that says what happened and, where it helps, what to do.
struct LensError: Error, Equatable {
    let name: Lens1.ErrorName
    let message: String

    init(_ name: Lens1.ErrorName, _ message: String) {
        self.name = name
        self.message = message
    }

    static func `internal`(_ m: String) -> LensError { LensError(.internal, m) }
    static func enrollment(_ m: String) -> LensError { LensError(.enrollment, m) }
    static func timestamp(_ m: String) -> LensError { LensError(.timestamp, m) }
    static func cameraSessionFailed(_ m: String) -> LensError { LensError(.cameraSessionFailed, m) }
    static func imageSigningFailed(_ m: String) -> LensError { LensError(.imageSigningFailed, m) }
    static func cameraPermissionDenied(_ m: String) -> LensError { LensError(.cameraPermissionDenied, m) }
    static func microphonePermissionDenied(_ m: String) -> LensError { LensError(.microphonePermissionDenied, m) }
    static func setFocusFailed(_ m: String) -> LensError { LensError(.setFocusFailed, m) }
    static func notAuthorized(_ m: String) -> LensError { LensError(.notAuthorized, m) }
    static func busy(_ m: String) -> LensError { LensError(.busy, m) }
    static func notStarted(_ m: String) -> LensError { LensError(.notStarted, m) }
    static func notFound(_ m: String) -> LensError { LensError(.notFound, m) }
    static func invalidArgument(_ m: String) -> LensError { LensError(.invalidArgument, m) }
    static func unsupported(_ m: String) -> LensError { LensError(.unsupported, m) }
    static func captureDisabled(_ m: String) -> LensError { LensError(.captureDisabled, m) }
    static func locationPermissionDenied(_ m: String) -> LensError { LensError(.locationPermissionDenied, m) }

    var busError: BusError { BusError(name.busName, message) }

    /// Camera-layer errors as the bus reports them.
    init(_ error: CameraError) {
        switch error {
        case .unsupported(let m): self = .unsupported(m)
        case .invalidArgument(let m): self = .invalidArgument(m)
        case .permissionDenied(let m): self = .cameraPermissionDenied(m)
        case .busy(let m): self = .busy(m)
        case .failed(let m): self = .cameraSessionFailed(m)
        case .focusFailed(let m): self = .setFocusFailed(m)
        }
    }

    /// Any error from lensd's own layers, mapped to the closest frozen name. The switches over
    /// each layer's kinds have no default, so a new kind must be given a name here to compile.
    static func from(_ error: Error) -> LensError {
        switch error {
        case let lens as LensError: return lens
        case let camera as CameraError: return LensError(camera)
        case let storage as StorageError: return LensError(storage)
        case let mp4 as MP4Error: return LensError(mp4)
        case let recording as VideoRecordingError: return .cameraSessionFailed(recording.description)
        case let audio as AudioError: return LensError(audio)
        case let c2pa as C2PAError: return .imageSigningFailed(c2pa.description)
        case let unstamped as TimeStamping.Unavailable: return .timestamp(unstamped.description)
        default: return .internal("\(error)")
        }
    }

    /// A full disk or a result over the user's byte allowance is the `storage` reason's refusal.
    init(_ error: StorageError) {
        switch error.kind {
        case .notFound: self = .notFound(error.message)
        case .invalidArgument: self = .invalidArgument(error.message)
        case .full: self = .captureDisabled("storage: \(error.message)")
        case .io: self = .internal(error.message)
        }
    }

    /// A microphone that refuses lensd is the SDK's microphonePermissionDenied; one that cannot
    /// capture is the `microphone` reason's refusal.
    init(_ error: AudioError) {
        switch error.kind {
        case .permissionDenied: self = .microphonePermissionDenied(error.description)
        case .deviceUnavailable: self = .captureDisabled("microphone: \(error.description)")
        case .failed: self = .internal(error.description)
        }
    }

    /// The muxer's errors: frames it cannot write came from the camera; a full disk is `storage`.
    init(_ error: MP4Error) {
        switch error.kind {
        case .invalidArgument: self = .cameraSessionFailed(error.message)
        case .io where error.errno == .noSpace || error.errno == .quotaExceeded: self = .captureDisabled("storage: \(error.message)")
        case .io, .notLensdFile, .malformed, .noCompleteFragment, .finished: self = .internal(error.message)
        }
    }
}

extension BusError {
    /// The D-Bus error a failed call answers with: the bus's own errors as they are, every other
    /// through LensError's one mapping.
    static func lens(_ error: Error) -> BusError {
        (error as? BusError) ?? LensError.from(error).busError
    }
}
