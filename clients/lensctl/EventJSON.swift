import FoundationEssentials
import LensClient

/// One line of `lensctl watch`: the event's D-Bus signal name and its payload.
struct EventJSON: Encodable {
    var event: String
    var time: Date
    var name: String?
    var thumbnail_size: Int?
    var size: UInt64?
    var sha256: String?
    var mime: String?
    var duration_s: Double?
    var frames: UInt32?
    var recovered: Bool?
    /// VideoSigned/VideoUnsigned: the video has a sound track.
    var audio: Bool?
    /// VideoUnsigned: why lensd could not sign the video.
    var reason: String?
    var reasons: [String]?
    var error: String?
    var message: String?
    var zoom_factor: Double?
    var point: PointJSON?
    var device: DeviceJSON?
    var flash_mode: String?
    /// LocationChanged only; null when the fix was lost.
    var location: LocationJSON?
    var status: StatusJSON?
    /// PhotoSigned/VideoSigned: queued (the outbox sends it) or disabled.
    var upload: String?
    /// PhotoSigned/VideoSigned: whether a TSA time-stamped the signature, and its time.
    var timestamped: Bool?
    var timestamp_time: Date?
    /// ResultUploaded: where the server stored it, and its HTTP status.
    var url: String?
    var http_status: UInt32?
    /// FaceDetected and FaceAutoCaptureFinished: the frame's detection.
    var detection: FaceDetectionJSON?

    init(status: StatusJSON, time: Date) {
        event = "Status"
        self.time = time
        self.status = status
    }

    init(_ lensEvent: LensEvent, time: Date) {
        self.time = time
        event = lensEvent.signalName
        switch lensEvent {
        case .initialCaptureFinished(let name, let thumbnail):
            self.name = name
            thumbnail_size = thumbnail.count
        case .photoSigned(let name, let info):
            self.name = name
            (size, sha256, mime, upload) = (info.size, info.sha256, info.mime, info.upload)
            (timestamped, timestamp_time) = (info.timestamped, info.timestampTime)
        case .captureDisabled(let reasons):
            self.reasons = reasons.map(\.rawValue)
        case .videoThumbnailGenerated(let name, let thumbnail, let duration):
            self.name = name
            (thumbnail_size, duration_s) = (thumbnail.count, Seconds.milliseconds(duration))
        case .videoSigned(let name, let info), .videoUnsigned(let name, let info):
            self.name = name
            (size, mime, duration_s, frames, recovered, reason) = (info.size, info.mime, Seconds.milliseconds(info.duration),
                                                                   info.frames, info.recovered, info.reason)
            (upload, timestamped, timestamp_time) = (info.upload, info.timestamped, info.timestampTime)
            audio = info.audio
        case .resultUploaded(let name, let info):
            self.name = name
            (url, http_status, sha256, size) = (info.url, info.status, info.sha256, info.size)
        case .uploadFailed(let name, let error, let message):
            self.name = name
            (self.error, self.message) = (error, message)
        case .resultUpdated(let name, let info):
            self.name = name
            (size, sha256, mime) = (info.size, info.sha256, info.mime)
            (timestamped, timestamp_time) = (info.timestamped, info.timestampTime)
        case .resultEvicted(let name, let reason):
            (self.name, self.reason) = (name, reason)
        case .faceDetected(let detection):
            self.detection = FaceDetectionJSON(detection)
        case .faceAutoCaptureFinished(let name, let detection):
            (self.name, self.detection) = (name, FaceDetectionJSON(detection))
        case .captureEnabled, .subjectAreaChanged, .videoRecordingStarted, .videoRecordingStopped, .candidateSelectionStarted: break
        case .failed(let error), .controlFailed(_, let error), .videoRecordingFailed(let error), .disconnected(let error):
            (self.error, message) = (error.name, error.message)
        case .zoomFactorChanged(let factor):
            zoom_factor = factor
        case .focusedOnPoint(let point):
            self.point = PointJSON(point)
        case .deviceChanged(let device):
            self.device = DeviceJSON(device)
        case .flashModeChanged(let mode):
            flash_mode = mode.rawValue
        case .locationChanged(let location):
            self.location = location.map(LocationJSON.init)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case event, time, name, thumbnail_size, size, sha256, mime, duration_s, frames, recovered, audio, reason, reasons, error
        case message, zoom_factor, point, device
        case flash_mode, location, status, upload, timestamped, timestamp_time, url, http_status, detection
    }

    /// Absent fields are left out, except LocationChanged's location, which is null when lost.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(event, forKey: .event)
        try c.encode(time, forKey: .time)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encodeIfPresent(thumbnail_size, forKey: .thumbnail_size)
        try c.encodeIfPresent(size, forKey: .size)
        try c.encodeIfPresent(sha256, forKey: .sha256)
        try c.encodeIfPresent(mime, forKey: .mime)
        try c.encodeIfPresent(duration_s, forKey: .duration_s)
        try c.encodeIfPresent(frames, forKey: .frames)
        try c.encodeIfPresent(recovered, forKey: .recovered)
        try c.encodeIfPresent(audio, forKey: .audio)
        try c.encodeIfPresent(reason, forKey: .reason)
        try c.encodeIfPresent(reasons, forKey: .reasons)
        try c.encodeIfPresent(error, forKey: .error)
        try c.encodeIfPresent(message, forKey: .message)
        try c.encodeIfPresent(zoom_factor, forKey: .zoom_factor)
        try c.encodeIfPresent(point, forKey: .point)
        try c.encodeIfPresent(device, forKey: .device)
        try c.encodeIfPresent(flash_mode, forKey: .flash_mode)
        if event == "LocationChanged" { try c.encode(location, forKey: .location) }
        try c.encodeIfPresent(status, forKey: .status)
        try c.encodeIfPresent(upload, forKey: .upload)
        try c.encodeIfPresent(timestamped, forKey: .timestamped)
        try c.encodeIfPresent(timestamp_time, forKey: .timestamp_time)
        try c.encodeIfPresent(url, forKey: .url)
        try c.encodeIfPresent(http_status, forKey: .http_status)
        try c.encodeIfPresent(detection, forKey: .detection)
    }
}

/// A face auto-capture detection: the instruction key, and the face when one was found.
struct FaceDetectionJSON: Encodable {
    struct Face: Encodable {
        /// Normalized left, top, right, bottom.
        var rectangle: [Double]
        var confidence: Double
        var size: Double
        var center_offset: Double
        var brightness: Double
        var sharpness: Double
    }

    var frame: UInt64
    var instruction: String
    var valid: Bool
    var face: Face?

    init(_ d: LensFaceDetection) {
        (frame, instruction, valid) = (d.frame, d.instruction.key, d.isValid)
        face = d.face.map { f in
            Face(rectangle: [f.left, f.top, f.right, f.bottom], confidence: f.confidence, size: f.size,
                 center_offset: f.centerOffset, brightness: f.brightness, sharpness: f.sharpness)
        }
    }
}
