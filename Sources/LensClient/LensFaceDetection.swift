import FoundationEssentials
import LensBus
import LensContract
import LensFace

/// An instruction of the face auto-capture (`face_too_far`, …). `localizedText(_:)` gives its
/// text from lensd's gettext catalogs, or with `useLocalizationDictionary` from the app's own
/// dictionary, keyed as the face library keys it (`localizationKey`):
/// `instruction.localizedText(FaceLocalization(localizationDictionary:
/// ["dot.face_lite_auto_capture.instruction.face_too_far": "Come closer"], useLocalizationDictionary: true))`.
public typealias LensFaceInstruction = FaceInstruction
public typealias LensFaceLocalization = FaceLocalization

/// One processed frame of the face auto-capture (FaceDetected, FaceAutoCaptureFinished).
public struct LensFaceDetection: Sendable, Equatable {
    /// The camera's frame number (the preview's `seq=`).
    public var frame: UInt64
    public var instruction: LensFaceInstruction
    /// Good enough to be the selfie.
    public var isValid: Bool
    /// The face found, nil when none.
    public var face: Face?

    public struct Face: Sendable, Equatable {
        /// Normalized edges in the frame: left, top, right, bottom.
        public var left: Double, top: Double, right: Double, bottom: Double
        /// The detector's neighbour count.
        public var confidence: Double
        public var size: Double
        public var centerOffset: Double
        public var brightness: Double
        public var sharpness: Double
    }

    init(_ fields: Fields) throws(LensClientError) {
        frame = try fields.uint64("frame")
        instruction = try fields.wire("instruction", as: FaceInstruction.self)
        isValid = try fields.bool("valid")
        guard try fields.bool("face") else { return }
        guard let box = fields.optionalDoubles("rectangle"), box.count == 4 else {
            throw LensClientError.internal("lensd sent a face detection without a valid rectangle")
        }
        face = Face(left: box[0], top: box[1], right: box[2], bottom: box[3], confidence: try fields.double("confidence"),
                    size: try fields.double("size"), centerOffset: try fields.double("center_offset"),
                    brightness: try fields.double("brightness"), sharpness: try fields.double("sharpness"))
    }
}

/// StartFaceAutoCapture's options; nil leaves lensd's default (docs/lensclient.md).
public struct LensFaceAutoCaptureConfiguration: Sendable {
    public var minValidFrames: UInt32?
    public var candidateSelectionMillis: UInt32?
    /// Normalized left, top, right, bottom.
    public var detectionRectangle: (left: Double, top: Double, right: Double, bottom: Double)?
    /// .front (lensd's default) or .back.
    public var cameraFacing: LensCameraPosition?
    public var minFaceSize: Double?
    public var maxFaceSize: Double?
    public var maxCenterOffset: Double?
    public var minBrightness: Double?
    public var maxBrightness: Double?
    public var minSharpness: Double?

    public init() {}

    var options: [String: BusValue] {
        typealias Key = Lens1.FaceOption
        var o: [Key: BusValue] = [:]
        o[.minValidFrames] = minValidFrames.map(BusValue.uint32)
        o[.candidateSelectionMillis] = candidateSelectionMillis.map(BusValue.uint32)
        o[.detectionRectangle] = detectionRectangle.map { .structure([.double($0.left), .double($0.top), .double($0.right), .double($0.bottom)]) }
        o[.cameraFacing] = cameraFacing.map { .string($0.rawValue) }
        let thresholds: [(Key, Double?)] = [(.minFaceSize, minFaceSize), (.maxFaceSize, maxFaceSize), (.maxCenterOffset, maxCenterOffset),
                                            (.minBrightness, minBrightness), (.maxBrightness, maxBrightness), (.minSharpness, minSharpness)]
        for (key, value) in thresholds { o[key] = value.map(BusValue.double) }
        return Dictionary(uniqueKeysWithValues: o.map { ($0.key.rawValue, $0.value) })
    }
}
