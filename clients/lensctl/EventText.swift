import FoundationEssentials
import LensSystem
import LensClient

/// `lensctl watch` without --json: "12:00:01.234Z CaptureDisabled location" (UTC, as every
/// time lensctl prints).
enum EventText {
    static func status(_ capture: LensSessionStatus, at time: Date) -> String {
        let state = capture.captureEnabled ? "capture enabled" : "capture disabled: \(Describe.reasons(capture))"
        return "\(clock(time)) Status \(state); location \(Describe.location(capture.location))"
    }

    static func event(_ event: LensEvent, at time: Date) -> String {
        let details = self.details(event)
        return "\(clock(time)) \(event.signalName)" + (details.isEmpty ? "" : " \(details)")
    }

    private static func details(_ event: LensEvent) -> String {
        switch event {
        case .initialCaptureFinished(let name, let thumbnail): "\(name), thumbnail \(thumbnail.count) bytes"
        case .photoSigned(let name, let info): "\(name), \(info.size) bytes \(info.mime), sha256 \(info.sha256)"
        case .captureDisabled(let reasons): reasons.map(\.rawValue).joined(separator: ", ")
        case .failed(let error), .controlFailed(_, let error), .videoRecordingFailed(let error), .disconnected(let error):
            "\(error.name): \(error.message)"
        case .videoThumbnailGenerated(let name, let thumbnail, let duration):
            "\(name), \(Seconds.text(duration)) s, thumbnail \(thumbnail.count) bytes"
        case .videoSigned(let name, let info), .videoUnsigned(let name, let info): "\(name), \(Describe.video(info))"
        case .zoomFactorChanged(let factor): String(cFormat: "%.2f×", factor)
        case .focusedOnPoint(let point): String(cFormat: "%.3f, %.3f", point.x, point.y)
        case .deviceChanged(let device): Describe.device(device)
        case .flashModeChanged(let mode): mode.rawValue
        case .resultEvicted(let name, let reason): "\(name) deleted: \(reason)"
        case .resultUpdated(let name, let info):
            "\(name) time-stamped later\(info.timestampTime.map { " (\(Output.iso8601($0)))" } ?? ""), now \(info.size) bytes, sha256 \(info.sha256)"
        case .locationChanged(let location): Describe.location(location)
        case .resultUploaded(let name, let info): "\(name) → \(info.url) (HTTP \(info.status)), sha256 \(info.sha256)"
        case .uploadFailed(let name, let error, let message): "\(name), \(error): \(message)"
        case .faceDetected(let detection): Describe.face(detection)
        case .faceAutoCaptureFinished(let name, let detection): "\(name), \(Describe.face(detection))"
        case .captureEnabled, .subjectAreaChanged, .videoRecordingStarted, .videoRecordingStopped, .candidateSelectionStarted: ""
        }
    }

    private static func clock(_ time: Date) -> String {
        time.formatted(Date.ISO8601FormatStyle(timeZone: .gmt).time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
