import Glibc

/// Why sound could not be captured or coded.
public struct AudioError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// The device does not exist or cannot capture in lensd's format.
        case deviceUnavailable
        /// The device refused access (EACCES/EPERM).
        case permissionDenied
        /// A capture or encoder failure after the device opened.
        case failed
    }

    public var kind: Kind
    /// ALSA's or libopus's negative error code, when one was returned.
    public var code: Int?
    public var description: String

    init(_ kind: Kind, _ description: String, code: Int? = nil) {
        self.kind = kind
        self.code = code
        self.description = description
    }

    /// Classifies an ALSA open error: access refused versus no usable device.
    static func opening(_ device: String, code: Int32, reason: String) -> AudioError {
        let refused = code == -EACCES || code == -EPERM
        return AudioError(refused ? .permissionDenied : .deviceUnavailable,
                          "opening the audio device \(device) for capture failed: \(reason)", code: Int(code))
    }
}
