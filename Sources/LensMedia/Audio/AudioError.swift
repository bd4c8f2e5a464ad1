import FoundationEssentials
import Glibc
import LensSystem

/// Why sound could not be captured or coded.
public struct AudioError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable, CaseIterable {
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

    /// Classifies an ALSA open error: access refused versus no usable device. ALSA resolves a card
    /// name ("hw:Loopback,1,0", "default") through the card's control node, and one it may not
    /// open reads as "no such device": then the sound nodes themselves say whether lensd was refused.
    static func opening(_ device: String, code: Int32, reason: String) -> AudioError {
        let description = "opening the audio device \(device) for capture failed: \(reason)"
        if code == -EACCES || code == -EPERM { return AudioError(.permissionDenied, description, code: Int(code)) }
        if code == -ENODEV || code == -ENOENT, let refusing = refusingSoundNode() {
            return AudioError(.permissionDenied, "\(description); \(refusing) refuses lensd (its user needs the audio group)",
                              code: Int(code))
        }
        return AudioError(.deviceUnavailable, description, code: Int(code))
    }

    /// The first sound card control node (/dev/snd/controlC*) this process may not open read-write.
    private static func refusingSoundNode() -> String? {
        let directory = "/dev/snd"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        for name in names.sorted() where name.hasPrefix("controlC") {
            let path = "\(directory)/\(name)"
            do {
                try FileSystem.checkAccess(path, R_OK | W_OK)
            } catch where error.errno == .permissionDenied || error.errno == .notPermitted {
                return path
            } catch {}
        }
        return nil
    }
}
