import CV4L2

/// One control as VIDIOC_QUERY_EXT_CTRL describes it: range, step and the flags that say whether
/// it can be used right now.
public struct V4L2ControlInfo: Sendable, Equatable {
    public var id: UInt32
    public var minimum: Int64
    public var maximum: Int64
    public var step: UInt64
    /// The driver lists the control but it does nothing on this device.
    public var isDisabled: Bool
    /// Temporarily without effect, e.g. absolute focus while continuous autofocus is on.
    public var isInactive: Bool
    public var isReadOnly: Bool

    public init(id: UInt32, minimum: Int64, maximum: Int64, step: UInt64 = 1,
                isDisabled: Bool = false, isInactive: Bool = false, isReadOnly: Bool = false) {
        self.id = id
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.isDisabled = isDisabled
        self.isInactive = isInactive
        self.isReadOnly = isReadOnly
    }

    /// Can be set and will act (a disabled, inactive or read-only control would not).
    var isSettable: Bool { !isDisabled && !isInactive && !isReadOnly }
}

/// The control ids lensd uses (camera class). The header's macros import as Int32 while the
/// ioctl structs hold UInt32, so they are converted once here.
public enum V4L2ControlID {
    public static let zoomAbsolute = UInt32(V4L2_CID_ZOOM_ABSOLUTE)
    public static let focusAbsolute = UInt32(V4L2_CID_FOCUS_ABSOLUTE)
    public static let focusAuto = UInt32(V4L2_CID_FOCUS_AUTO)
    public static let autoFocusStart = UInt32(V4L2_CID_AUTO_FOCUS_START)
    public static let autoFocusStatus = UInt32(V4L2_CID_AUTO_FOCUS_STATUS)
    public static let cameraOrientation = UInt32(V4L2_CID_CAMERA_ORIENTATION)
    /// UVC's region of interest (a v4l2_rect in frame pixels) and what the camera does with it
    /// (a bitmask: auto-exposure, focus, …).
    public static let regionOfInterestRect = CV4L2_CID_REGION_OF_INTEREST_RECT
    public static let regionOfInterestAuto = CV4L2_CID_REGION_OF_INTEREST_AUTO
    // Flash class: these live on LED-flash subdevices, never on video nodes.
    public static let flashLEDMode = UInt32(V4L2_CID_FLASH_LED_MODE)
    public static let flashStrobe = UInt32(V4L2_CID_FLASH_STROBE)
}

/// The ioctls the control logic needs. V4L2Device implements it on a real node; unit tests
/// implement it with a fake, because no virtual driver offers zoom, focus, flash or orientation.
public protocol V4L2ControlDevice: AnyObject {
    /// nil when the device has no such control.
    func queryControl(_ id: UInt32) throws -> V4L2ControlInfo?
    func control(_ id: UInt32) throws -> Int32
    func setControl(_ id: UInt32, to value: Int32) throws
    /// The values of a menu control the driver offers; menus may leave gaps in min...max.
    func menuIndices(of info: V4L2ControlInfo) throws -> [Int64]
    /// A rectangle control (VIDIOC_G_EXT_CTRLS / VIDIOC_S_EXT_CTRLS); the driver may adjust what is set.
    func rectangle(_ id: UInt32) throws -> V4L2Rectangle
    func setRectangle(_ id: UInt32, to rectangle: V4L2Rectangle) throws
}

/// A v4l2_rect, in frame pixels.
public struct V4L2Rectangle: Sendable, Equatable {
    public var left: Int32
    public var top: Int32
    public var width: UInt32
    public var height: UInt32

    public init(left: Int32, top: Int32, width: UInt32, height: UInt32) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
    }
}
