import CV4L2
import Glibc
import LensSystem

/// An open V4L2 node, through libv4l2 (so cameras with vendor formats still deliver RGB24).
/// Typed wrappers over the ioctls; every failure is a SystemError naming the ioctl. Closed on deinit.
public final class V4L2Device: V4L2ControlDevice {
    public let path: String
    let fd: Int32

    /// Non-blocking: dequeues wait in poll(), where a vanished device shows as an error.
    public init(path: String) throws {
        self.path = path
        let fd = cv4l2_open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open", path: path, errno: .current) }
        self.fd = fd
    }

    deinit { v4l2_close(fd) }

    /// An interrupted call is retried (LensSystem); any other failure throws with the operation's name. A test can
    /// make it fail as a busy or vanished device would (`SystemCalls.FaultInjection`, `.deviceControl`).
    /// `argument` is the ioctl's C struct (plain data, some with unions).
    func ioctl<T>(_ request: UInt, _ argument: inout T, _ operation: String) throws {
        let fd = fd
        try withUnsafeMutableBytes(of: &argument) { bytes in
            do throws(SystemError) {
                _ = try SystemCalls.retryingInterrupts(operation, .deviceControl, fd: fd) { cv4l2_ioctl(fd, request, bytes.baseAddress) }
            } catch {
                throw SystemError(operation, errno: error.errno)
            }
        }
    }

    public struct Capability: Sendable, Equatable {
        public var driver: String
        public var card: String
        public var busInfo: String
        public var capturesVideo: Bool
        public var streams: Bool
    }

    public func capability() throws -> Capability {
        var cap = v4l2_capability()
        try ioctl(CV4L2_VIDIOC_QUERYCAP, &cap, "VIDIOC_QUERYCAP")
        // device_caps describes this node; capabilities the whole device (e.g. also metadata).
        let caps = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities
        return Capability(driver: Self.string(cap.driver), card: Self.string(cap.card), busInfo: Self.string(cap.bus_info),
                          capturesVideo: caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0,
                          streams: caps & UInt32(V4L2_CAP_STREAMING) != 0)
    }

    /// The pixel formats the device itself delivers (libv4l2's emulated ones left out).
    public func nativeFormats() -> [UInt32] {
        var formats: [UInt32] = []
        var desc = v4l2_fmtdesc()
        desc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        while (try? ioctl(CV4L2_VIDIOC_ENUM_FMT, &desc, "VIDIOC_ENUM_FMT")) != nil {
            if desc.flags & UInt32(V4L2_FMT_FLAG_EMULATED) == 0 { formats.append(desc.pixelformat) }
            desc.index += 1
        }
        return formats
    }

    public struct Format: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var pixelFormat: UInt32
        public var bytesPerLine: Int
    }

    /// The driver may adjust the size; the format in effect is returned.
    public func setFormat(width: Int, height: Int, pixelFormat: UInt32) throws -> Format {
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        format.fmt.pix.width = UInt32(width)
        format.fmt.pix.height = UInt32(height)
        format.fmt.pix.pixelformat = pixelFormat
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try ioctl(CV4L2_VIDIOC_S_FMT, &format, "VIDIOC_S_FMT")
        return Format(width: Int(format.fmt.pix.width), height: Int(format.fmt.pix.height),
                      pixelFormat: format.fmt.pix.pixelformat, bytesPerLine: Int(format.fmt.pix.bytesperline))
    }

    /// Asks for `rate` frames per second and returns the rate in effect (the driver picks the
    /// nearest it supports); nil when the device has no frame-rate setting.
    public func setFrameRate(_ rate: Double) throws -> Double? {
        var parm = v4l2_streamparm()
        parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        try ioctl(CV4L2_VIDIOC_G_PARM, &parm, "VIDIOC_G_PARM")
        guard parm.parm.capture.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0 else { return nil }
        parm.parm.capture.timeperframe = v4l2_fract(numerator: 1000, denominator: UInt32((rate * 1000).rounded()))
        try ioctl(CV4L2_VIDIOC_S_PARM, &parm, "VIDIOC_S_PARM")
        let interval = parm.parm.capture.timeperframe
        return interval.numerator == 0 ? nil : Double(interval.denominator) / Double(interval.numerator)
    }

    public func queryControl(_ id: UInt32) throws -> V4L2ControlInfo? {
        var query = v4l2_query_ext_ctrl()
        query.id = id
        do { try ioctl(CV4L2_VIDIOC_QUERY_EXT_CTRL, &query, "VIDIOC_QUERY_EXT_CTRL") } catch let error as SystemError where error.errno == .invalidArgument {
            return nil
        }
        return V4L2ControlInfo(id: id, minimum: query.minimum, maximum: query.maximum, step: query.step,
                               isDisabled: query.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) != 0,
                               isInactive: query.flags & UInt32(V4L2_CTRL_FLAG_INACTIVE) != 0,
                               isReadOnly: query.flags & UInt32(V4L2_CTRL_FLAG_READ_ONLY) != 0)
    }

    public func control(_ id: UInt32) throws -> Int32 {
        var control = v4l2_control(id: id, value: 0)
        try ioctl(CV4L2_VIDIOC_G_CTRL, &control, "VIDIOC_G_CTRL")
        return control.value
    }

    public func setControl(_ id: UInt32, to value: Int32) throws {
        var control = v4l2_control(id: id, value: value)
        try ioctl(CV4L2_VIDIOC_S_CTRL, &control, "VIDIOC_S_CTRL")
    }

    public func rectangle(_ id: UInt32) throws -> V4L2Rectangle {
        var rect = v4l2_rect()
        try extendedControl(id, &rect, request: CV4L2_VIDIOC_G_EXT_CTRLS, "VIDIOC_G_EXT_CTRLS")
        return V4L2Rectangle(left: rect.left, top: rect.top, width: rect.width, height: rect.height)
    }

    public func setRectangle(_ id: UInt32, to rectangle: V4L2Rectangle) throws {
        var rect = v4l2_rect(left: rectangle.left, top: rectangle.top, width: rectangle.width, height: rectangle.height)
        try extendedControl(id, &rect, request: CV4L2_VIDIOC_S_EXT_CTRLS, "VIDIOC_S_EXT_CTRLS")
    }

    /// One compound control through the extended-control ioctls, its payload in `value`.
    private func extendedControl<T>(_ id: UInt32, _ value: inout T, request: UInt, _ operation: String) throws {
        try withUnsafeMutableBytes(of: &value) { payload in
            var control = v4l2_ext_control()
            control.id = id
            control.size = UInt32(payload.count)
            control.ptr = payload.baseAddress
            try withUnsafeMutablePointer(to: &control) { pointer in
                var controls = v4l2_ext_controls()
                controls.which = UInt32(V4L2_CTRL_WHICH_CUR_VAL)
                controls.count = 1
                controls.controls = pointer
                try ioctl(request, &controls, operation)
            }
        }
    }

    public func menuIndices(of info: V4L2ControlInfo) throws -> [Int64] {
        guard info.minimum <= info.maximum else { return [] }
        return try (info.minimum...info.maximum).filter { index in
            var item = v4l2_querymenu()
            item.id = info.id
            item.index = UInt32(truncatingIfNeeded: index)
            do { try ioctl(CV4L2_VIDIOC_QUERYMENU, &item, "VIDIOC_QUERYMENU") } catch let error as SystemError where error.errno == .invalidArgument {
                return false  // a gap: the driver skips this value
            }
            return true
        }
    }

    /// "MJPG" for a fourcc, as ListDevices shows formats; big-endian variants (the fourcc's
    /// top bit set) get "-BE", as v4l2-ctl writes them.
    public static func fourccString(_ code: UInt32) -> String {
        let bigEndian: UInt32 = 1 << 31  // V4L2_PIX_FMT_FLAG_BE_FOURCC; Debian 12's headers predate it
        let characters = (0..<4).map { UInt8(truncatingIfNeeded: (code & ~bigEndian) >> ($0 * 8)) }.filter { $0 != 0x20 }
        return String(decoding: characters, as: UTF8.self) + (code & bigEndian != 0 ? "-BE" : "")
    }

    private static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
