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

    /// Why capture is disabled, reason by reason, in plain words: what the user meets ("No
    /// location source"), with lensd's own words beside it for the details view (which gpsd is
    /// unreachable, and why), never instead of it. `fixAccuracy`: the current fix's, if any.
    static func disabledReasons(_ reasons: [LensCaptureStatus], details: [LensCaptureStatus: String], fixAccuracy: Double?,
                                maximumAccuracy: Double) -> [GateReason] {
        reasons.map { reason in
            let detail = details[reason].flatMap { $0.isEmpty ? nil : $0 }
            return GateReason(reason: reason, summary: summary(of: reason, detail: detail, fixAccuracy: fixAccuracy,
                                                               maximumAccuracy: maximumAccuracy),
                              detail: detail)
        }
    }

    /// The reason in a few words. For location: a fix too coarse (its accuracy and the one
    /// needed), no fix yet from a working source (lensd's words begin "no fix yet"), or no source
    /// at all (gpsd unreachable, refusing, gone).
    static func summary(of reason: LensCaptureStatus, detail: String?, fixAccuracy: Double?, maximumAccuracy: Double) -> String {
        let needed = Int(maximumAccuracy.rounded())
        switch reason {
        case .location:
            if let fixAccuracy { return tr("Location not accurate enough: ± %d m, needs ± %d m or better", Int(fixAccuracy.rounded()), needed) }
            if detail?.hasPrefix("no fix yet") ?? true { return tr("Waiting for a location fix of ± %d m or better", needed) }
            return tr("No location source")
        case .enrollment: return tr("This device is not enrolled")
        case .camera: return tr("No camera")
        case .storage: return tr("No room to store photos")
        case .timestamp: return tr("Waiting for a trusted time-stamp")
        case .microphone: return tr("No microphone")
        default: return tr("Capture unavailable (%@)", reason.rawValue)
        }
    }

    /// "Location ± 4 m", or that there is no fix.
    static func location(accuracy: Double?) -> String {
        accuracy.map { tr("Location ± %d m", Int($0.rounded())) } ?? tr("No location fix")
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

    /// "3 seconds", or off.
    static func countdown(_ seconds: Int) -> String {
        seconds == 0 ? tr("No countdown") : tr("%d second countdown", seconds)
    }
}

/// One reason capture is disabled: plain words, and lensd's own when it gave any.
struct GateReason: Equatable {
    var reason: LensCaptureStatus
    var summary: String
    var detail: String?

    var isLocation: Bool { reason == .location }
}
