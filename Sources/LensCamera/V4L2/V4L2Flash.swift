import CV4L2
import FoundationEssentials
import Glibc
import LensSystem

/// A camera's flash LED, driven through V4L2_CID_FLASH_LED_MODE on an LED-flash subdevice (video
/// nodes have no flash controls). lensd's `off` is LED mode NONE; `on` is FLASH, strobed just
/// before the photo's frame is taken when the subdevice has V4L2_CID_FLASH_STROBE (without it the
/// sensor strobes it), or TORCH, lit only for the capture, when the LED cannot flash.
/// The flash class has no automatic mode, so `auto` is never offered.
struct V4L2Flash {
    static let supportedModes: [FlashMode] = [.off, .on]

    let device: any V4L2ControlDevice
    /// The LED mode that `on` sets: FLASH, or TORCH on a torch-only LED.
    let onMode: Int32
    /// The LED is fired by software (V4L2_CID_FLASH_STROBE) rather than by the sensor.
    let strobes: Bool

    private static let none = Int32(V4L2_FLASH_LED_MODE_NONE.rawValue)
    private static let flash = Int32(V4L2_FLASH_LED_MODE_FLASH.rawValue)
    private static let torch = Int32(V4L2_FLASH_LED_MODE_TORCH.rawValue)

    /// nil when the device has no usable LED mode control: absent, DISABLED, read-only, or a
    /// menu that cannot both switch the LED off and light it.
    init?(probing device: any V4L2ControlDevice) throws {
        guard let info = try device.queryControl(V4L2ControlID.flashLEDMode), !info.isDisabled, !info.isReadOnly else {
            return nil
        }
        let modes = try device.menuIndices(of: info)
        guard modes.contains(Int64(Self.none)) else { return nil }
        if modes.contains(Int64(Self.flash)) {
            onMode = Self.flash
        } else if modes.contains(Int64(Self.torch)) {
            onMode = Self.torch
        } else {
            return nil
        }
        self.device = device
        strobes = try onMode == Self.flash && device.queryControl(V4L2ControlID.flashStrobe).map { !$0.isDisabled } == true
    }

    /// Read on every state snapshot: the driver marks the control INACTIVE while the LED cannot
    /// fire (a fault, overheating), which may change at any time.
    var isAvailable: Bool {
        guard let info = try? device.queryControl(V4L2ControlID.flashLEDMode) else { return false }
        return !info.isDisabled && !info.isInactive
    }

    /// Checks `mode` and switches the LED off for `off` (a torch must not stay lit); `on` only
    /// takes effect at capture.
    func select(_ mode: FlashMode) throws {
        guard Self.supportedModes.contains(mode) else {
            let supported = Self.supportedModes.map(\.rawValue).joined(separator: ", ")
            throw CameraError.invalidArgument("flash mode \(mode.rawValue) is not supported (supported: \(supported))")
        }
        if mode == .off { try device.setControl(V4L2ControlID.flashLEDMode, to: Self.none) }
    }

    /// Before the photo's frame is dequeued: lights the LED for `on` when it can fire now.
    /// An unavailable flash does not fail the photo; the photo is taken without it.
    func beforeCapture(_ mode: FlashMode) throws {
        guard mode == .on, isAvailable else { return }
        try device.setControl(V4L2ControlID.flashLEDMode, to: onMode)
        if strobes { try device.setControl(V4L2ControlID.flashStrobe, to: 1) }
    }

    /// After the frame: a torch goes out (a flash ends by itself, after its timeout).
    func afterCapture(_ mode: FlashMode) throws {
        if mode == .on, onMode == Self.torch { try device.setControl(V4L2ControlID.flashLEDMode, to: Self.none) }
    }

    /// The LED-flash subdevices that belong to the camera at `videoNode`: /dev/v4l-subdevN whose
    /// sysfs device is the video node's. Subdevices registered by another driver and tied in
    /// only through the media controller are found by `mediaGraphSubdevicePaths`.
    static func subdevicePaths(forVideoNode videoNode: String, sysfs: String = "/sys/class/video4linux") -> [String] {
        let node = nodeName(videoNode)
        guard let parent = resolved("\(sysfs)/\(node)/device") else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sysfs)) ?? []
        return names.filter { $0.hasPrefix("v4l-subdev") && Int($0.dropFirst(10)) != nil }
            .sorted { Int($0.dropFirst(10))! < Int($1.dropFirst(10))! }
            .filter { resolved("\(sysfs)/\($0)/device") == parent }
            .map { "/dev/\($0)" }
    }

    /// The first subdevice with a usable LED: the video node's sysfs siblings first, then the
    /// flashes of its media graph (read only when no sibling has one). nil when none has.
    static func find(forVideoNode videoNode: String) -> V4L2Flash? {
        firstUsable(subdevicePaths(forVideoNode: videoNode))
            ?? firstUsable(mediaGraphSubdevicePaths(forVideoNode: videoNode, graphs: mediaGraphs))
    }

    private static func firstUsable(_ paths: [String]) -> V4L2Flash? {
        for path in paths {
            if let device = try? V4L2Device(path: path), let flash = try? V4L2Flash(probing: device) { return flash }
        }
        return nil
    }

    private static func resolved(_ path: String) -> String? {
        try? FileSystem.resolvedPath(path)
    }
}
