import FoundationEssentials
import LensSystem
import LensClient

/// Human-readable pieces several commands print.
enum Describe {
    /// ", certificate valid until TIME", and when renewal is due how long is left.
    static func certificateExpiry(_ status: LensStatus, now: Date = Date()) -> String {
        guard let notAfter = status.certificateNotAfter else { return "" }
        let expiry = ", certificate valid until \(Output.iso8601(notAfter))"
        guard renewalIsDue(status, now: now) else { return expiry }
        let days = Int((notAfter.timeIntervalSince(now) / 86_400).rounded())
        return expiry + " — due for renewal: it expires in \(days) day\(days == 1 ? "" : "s") (see lensd(8), renew-before)"
    }

    /// One line on enrollment over EST: what the last attempt met, and when lensd asks next.
    static func est(_ est: LensESTStatus) -> String {
        let next = est.nextAttempt.map { "next attempt \(Output.iso8601($0))" } ?? "attempt under way"
        guard let error = est.lastError else { return "est: \(next)" }
        let last = est.lastAttempt.map { " at \(Output.iso8601($0))" } ?? ""
        return "est: waiting — last attempt\(last): \(error); \(next)"
    }

    /// An enrolled certificate within lensd's renew-before of its expiry.
    static func renewalIsDue(_ status: LensStatus, now: Date = Date()) -> Bool {
        guard status.enrollmentState == "enrolled", let renewAfter = status.certificateRenewAfter else { return false }
        return now >= renewAfter
    }

    static func location(_ location: LensLocation?) -> String {
        guard let location else { return "no fix" }
        var text = String(cFormat: "%.6f, %.6f ± %.0f m", location.latitude, location.longitude, location.accuracy)
        if let altitude = location.altitude { text += String(cFormat: ", altitude %.0f m", altitude) }
        return text + " (\(location.mode.rawValue) fix of \(Output.iso8601(location.fixTime)))"
    }

    static func device(_ device: LensCaptureDevice?) -> String {
        guard let device else { return "none" }
        let flash = device.hasFlash ? "flash \(device.flashMode.rawValue)" : "no flash"
        let zoom = String(cFormat: "zoom %.1f× of %.1f×", device.videoZoomFactor, device.maxZoomFactor)
            + (device.isDigitalZoom ? " (digital)" : "")
        return "\(device.position.rawValue): \(device.name) (\(device.path)), \(flash), \(zoom)"
    }

    /// Why capture is disabled, reason by reason, in lensd's words where it gives them
    /// ("location: gpsd at 127.0.0.1:2947 is not reachable …"), else with the numbers at hand.
    static func reasons(_ status: LensSessionStatus) -> String {
        status.disabledReasons.map { reason in
            if let detail = status.disabledReasonDetails[reason] { return "\(reason.rawValue): \(detail)" }
            guard reason == .location else { return reason.rawValue }
            let limit = String(cFormat: "%.0f m", status.maximumLocationAccuracy)
            guard let fix = status.location else { return "location: no fix yet (need ≤ \(limit))" }
            return String(cFormat: "location: %.0f m > ", fix.accuracy) + limit
        }.joined(separator: ", ")
    }

    /// A size as `df -h` and `ls -h` print it: powers of 1024, one decimal below 10, rounded
    /// up so that it never reads smaller than it is ("1.8M", "24K", "1.0G", "512").
    static func size(_ bytes: UInt64) -> String {
        var value = Double(bytes)
        var unit = ""
        for next in ["K", "M", "G", "T", "P", "E"] where value >= 1024 {
            value /= 1024
            unit = next
        }
        guard !unit.isEmpty else { return String(bytes) }
        if value < 10, (value * 10).rounded(.up) < 100 { return String(cFormat: "%.1f", (value * 10).rounded(.up) / 10) + unit }
        return String(cFormat: "%.0f", value.rounded(.up)) + unit
    }

    /// "12.400 s, 372 frames, 3104228 bytes video/mp4, sound, recovered, unsigned: no key".
    /// "frame 42 face_too_far, face 0.12 of the width" — keys, not translations: `watch` prints the wire.
    static func face(_ detection: LensFaceDetection) -> String {
        "frame \(detection.frame) \(detection.instruction.key)"
            + (detection.face.map { String(cFormat: ", face %.2f of the width", $0.size) } ?? "")
    }

    static func video(_ info: LensVideoInfo) -> String {
        var text = "\(Seconds.text(info.duration)) s, \(info.frames) frames, \(info.size) bytes \(info.mime)"
            + (info.audio ? ", sound" : ", silent")
        if info.recovered { text += ", recovered" }
        if let reason = info.reason { text += ", unsigned: \(reason)" }
        return text
    }
}
