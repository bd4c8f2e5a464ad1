import LensClient

/// The words the app shows for lensd's states.
enum DisplayText {
    /// "01:05" for 65.4 s; hours roll into minutes ("75:00").
    static func duration(_ seconds: Double) -> String {
        let whole = max(0, Int(seconds.isFinite ? seconds : 0))
        return String(format: "%02d:%02d", whole / 60, whole % 60)
    }

    /// "2.0×"
    static func zoom(_ factor: Double) -> String { String(format: "%.1f×", factor) }

    /// One line per reason: lensd's own words where it gave them (e.g. which gpsd is
    /// unreachable, and the threshold), else a sentence for the reason.
    static func disabledReasons(_ reasons: [LensDisabledReason], details: [LensDisabledReason: String],
                                maximumAccuracy: Double) -> String {
        reasons.map { reason in
            guard let detail = details[reason], !detail.isEmpty else { return summary(of: reason, maximumAccuracy: maximumAccuracy) }
            return "\(summary(of: reason, maximumAccuracy: nil)): \(detail)"
        }.joined(separator: "\n")
    }

    /// The reason in a few words; with the location threshold when lensd's details do not say it.
    static func summary(of reason: LensDisabledReason, maximumAccuracy: Double?) -> String {
        switch reason {
        case .location:
            maximumAccuracy.map { tr("Waiting for a location fix (need ≤ %d m)", Int($0.rounded())) } ?? tr("Waiting for a location fix")
        case .enrollment: tr("Device not enrolled")
        case .camera: tr("No camera")
        case .storage: tr("No room to store photos")
        case .timestamp: tr("Waiting for a trusted time-stamp")
        default: tr("Capture unavailable (%@)", reason.rawValue)
        }
    }

    static func position(_ position: LensCameraPosition) -> String {
        switch position {
        case .back: tr("Back camera")
        case .front: tr("Front camera")
        case .external: tr("External camera")
        case .unspecified: tr("Camera")
        }
    }

    static func flash(_ mode: LensFlashMode) -> String {
        switch mode {
        case .off: tr("Flash off")
        case .on: tr("Flash on")
        case .auto: tr("Flash auto")
        }
    }
}
