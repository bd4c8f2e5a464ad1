import LensBus

/// Where a camera faces (the wire values of dbus/org.lensd.Lens1.xml).
public enum LensCameraPosition: String, Sendable, CaseIterable {
    case back, front, external, unspecified
}

/// The flash setting of the current camera.
public enum LensFlashMode: String, Sendable, CaseIterable {
    case off, on, auto
}

/// The camera in use, as the SDK's `LensCaptureDevice` (the session's CurrentDevice property,
/// ChangeCamera's answer, DeviceChanged).
public struct LensCaptureDevice: Sendable, Equatable {
    /// The SDK's nested names (`LensCaptureDevice.FlashMode` in `lensCameraDidSetFlashMode`).
    public typealias FlashMode = LensFlashMode
    public typealias Position = LensCameraPosition

    public var position: LensCameraPosition
    public var name: String
    /// The V4L2 device node, or "synthetic:back" / "synthetic:front" for the synthetic cameras.
    public var path: String
    public var hasFlash: Bool
    public var isFlashAvailable: Bool
    public var flashMode: LensFlashMode
    public var supportedFlashModes: [LensFlashMode]
    public var canZoom: Bool
    /// The zoom factor now in use (1 = none), named as the SDK names it.
    public var videoZoomFactor: Double
    public var maxZoomFactor: Double
    /// True when zoom crops the frame rather than moving optics.
    public var isDigitalZoom: Bool

    init(_ fields: Fields) throws(LensClientError) {
        position = LensCameraPosition(rawValue: try fields.string("position")) ?? .unspecified
        name = try fields.string("name")
        path = try fields.string("path")
        hasFlash = try fields.bool("hasFlash")
        isFlashAvailable = try fields.bool("isFlashAvailable")
        flashMode = try fields.wire("flashMode", as: LensFlashMode.self)
        supportedFlashModes = try fields.strings("supportedFlashModes").compactMap(LensFlashMode.init(rawValue:))
        canZoom = try fields.bool("canZoom")
        videoZoomFactor = try fields.double("videoZoomFactor")
        maxZoomFactor = try fields.double("maxZoomFactor")
        isDigitalZoom = try fields.bool("digitalZoom")
    }
}

/// A camera lensd knows (ListDevices), whether or not it is the current one.
public struct LensDeviceDescription: Sendable, Equatable {
    public var path: String
    public var name: String
    public var driver: String
    public var busInfo: String
    public var position: LensCameraPosition
    /// vivid, v4l2loopback or the synthetic camera: frames that did not come from a sensor.
    public var isVirtual: Bool
    /// V4L2 fourcc codes, e.g. "MJPG".
    public var formats: [String]

    init(_ fields: Fields) throws(LensClientError) {
        path = try fields.string("path")
        name = try fields.string("name")
        driver = try fields.string("driver")
        busInfo = try fields.string("bus_info")
        position = LensCameraPosition(rawValue: try fields.string("position")) ?? .unspecified
        isVirtual = try fields.bool("virtual")
        formats = try fields.strings("formats")
    }
}
