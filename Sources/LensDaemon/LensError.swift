import C2PA
import Glibc
import LensBus
import LensCore

/// lensd's errors, named as DESIGN.md freezes them (org.lensd.Lens1.Error.*). Each carries a
/// sentence that says what happened and, where it helps, what to do.
enum LensError: Error, Equatable {
    case `internal`(String)
    case enrollment(String)
    case timestamp(String)
    case cameraSessionFailed(String)
    case imageSigningFailed(String)
    case cameraPermissionDenied(String)
    case setFocusFailed(String)
    case notAuthorized(String)
    case busy(String)
    case notStarted(String)
    case notFound(String)
    case invalidArgument(String)
    case unsupported(String)
    case captureDisabled(String)
    case microphonePermissionDenied(String)

    static let prefix = "org.lensd.Lens1.Error."

    var busError: BusError {
        switch self {
        case .internal(let m): return BusError(Self.prefix + "Internal", m)
        case .enrollment(let m): return BusError(Self.prefix + "Enrollment", m)
        case .timestamp(let m): return BusError(Self.prefix + "Timestamp", m)
        case .cameraSessionFailed(let m): return BusError(Self.prefix + "CameraSessionFailed", m)
        case .imageSigningFailed(let m): return BusError(Self.prefix + "ImageSigningFailed", m)
        case .cameraPermissionDenied(let m): return BusError(Self.prefix + "CameraPermissionDenied", m)
        case .setFocusFailed(let m): return BusError(Self.prefix + "SetFocusFailed", m)
        case .notAuthorized(let m): return BusError(Self.prefix + "NotAuthorized", m)
        case .busy(let m): return BusError(Self.prefix + "Busy", m)
        case .notStarted(let m): return BusError(Self.prefix + "NotStarted", m)
        case .notFound(let m): return BusError(Self.prefix + "NotFound", m)
        case .invalidArgument(let m): return BusError(Self.prefix + "InvalidArgument", m)
        case .unsupported(let m): return BusError(Self.prefix + "Unsupported", m)
        case .captureDisabled(let m): return BusError(Self.prefix + "CaptureDisabled", m)
        case .microphonePermissionDenied(let m): return BusError(Self.prefix + "MicrophonePermissionDenied", m)
        }
    }

    var isMicrophonePermissionDenied: Bool {
        if case .microphonePermissionDenied = self { return true }
        return false
    }

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
        case .io where error.errno == ENOSPC || error.errno == EDQUOT: self = .captureDisabled("storage: \(error.message)")
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
