@testable import LensCamera
@testable import LensCore
import LensSystem
import XCTest

/// The V4L2 control logic against a fake device layer. This is the one place lensd's tests use a
/// fake: no virtual driver (vivid, v4l2loopback) offers zoom, focus, flash or orientation
/// controls, so their presence, ranges and flags can only be exercised this way. Capture and the
/// "control absent" paths run on the real vivid driver (VividVMTests).
final class V4L2ControlsTests: XCTestCase {
    /// Answers the ioctls from a table of controls; records what was set.
    final class FakeDevice: V4L2ControlDevice {
        var controls: [UInt32: V4L2ControlInfo] = [:]
        var values: [UInt32: Int32] = [:]
        var sets: [(id: UInt32, value: Int32)] = []
        /// Menu values per control where the menu has gaps; otherwise all of min...max.
        var menus: [UInt32: [Int64]] = [:]

        init(_ controls: [V4L2ControlInfo] = [], values: [UInt32: Int32] = [:]) {
            for control in controls { self.controls[control.id] = control }
            self.values = values
        }

        func queryControl(_ id: UInt32) throws -> V4L2ControlInfo? { controls[id] }
        func control(_ id: UInt32) throws -> Int32 {
            guard controls[id] != nil else { throw SystemError("VIDIOC_G_CTRL", errno: .invalidArgument) }
            return values[id] ?? 0
        }
        func setControl(_ id: UInt32, to value: Int32) throws {
            guard controls[id] != nil else { throw SystemError("VIDIOC_S_CTRL", errno: .invalidArgument) }
            sets.append((id, value))
            values[id] = value
        }
        func menuIndices(of info: V4L2ControlInfo) throws -> [Int64] {
            menus[info.id] ?? Array(info.minimum...info.maximum)
        }
        /// Rectangle controls: what was set, as `adjust` (the driver's alignment) makes it.
        var rectangles: [UInt32: V4L2Rectangle] = [:]
        var adjust: (V4L2Rectangle) -> V4L2Rectangle = { $0 }
        func rectangle(_ id: UInt32) throws -> V4L2Rectangle {
            guard controls[id] != nil else { throw SystemError("VIDIOC_G_EXT_CTRLS", errno: .invalidArgument) }
            return rectangles[id] ?? V4L2Rectangle(left: 0, top: 0, width: 0, height: 0)
        }
        func setRectangle(_ id: UInt32, to rectangle: V4L2Rectangle) throws {
            guard controls[id] != nil else { throw SystemError("VIDIOC_S_EXT_CTRLS", errno: .invalidArgument) }
            rectangles[id] = adjust(rectangle)
        }
    }

    private let zoom = V4L2ControlID.zoomAbsolute

    func testWithoutAZoomControlZoomIsDigitalUpToFour() throws {
        let device = FakeDevice()
        let controls = try V4L2Controls(probing: device)
        XCTAssertEqual(controls.zoom, .digital)
        XCTAssertEqual(controls.maxZoomFactor, 4)
        XCTAssertEqual(try controls.setZoom(2.5, on: device), 2.5)
        XCTAssertEqual(try controls.setZoom(9, on: device), 4)
        XCTAssertTrue(device.sets.isEmpty)
    }

    func testOpticalZoomMapsFactorsOntoTheRangeInSteps() throws {
        // UVC style: 100...500 means 1×...5×.
        let device = FakeDevice([V4L2ControlInfo(id: zoom, minimum: 100, maximum: 500, step: 10)])
        let controls = try V4L2Controls(probing: device)
        XCTAssertEqual(controls.maxZoomFactor, 5)
        XCTAssertEqual(try controls.setZoom(2, on: device), 2)
        XCTAssertEqual(device.values[zoom], 200)
        // 2.03× is 203, rounded to the step: 200, reported as the 2× in effect.
        XCTAssertEqual(try controls.setZoom(2.03, on: device), 2)
        XCTAssertEqual(try controls.setZoom(7, on: device), 5)
        XCTAssertEqual(device.values[zoom], 500)
    }

    func testAZoomRangeFromZeroIsTakenAsNominalFourTimes() throws {
        let device = FakeDevice([V4L2ControlInfo(id: zoom, minimum: 0, maximum: 30)])
        let controls = try V4L2Controls(probing: device)
        XCTAssertEqual(controls.maxZoomFactor, V4L2Controls.nominalOpticalZoom)
        XCTAssertEqual(try controls.setZoom(4, on: device), 4)
        XCTAssertEqual(device.values[zoom], 30)
    }

    func testDisabledInactiveOrReadOnlyZoomFallsBackToDigital() throws {
        for flags in [(true, false, false), (false, true, false), (false, false, true)] {
            let info = V4L2ControlInfo(id: zoom, minimum: 100, maximum: 500, isDisabled: flags.0, isInactive: flags.1,
                                       isReadOnly: flags.2)
            XCTAssertEqual(try V4L2Controls(probing: FakeDevice([info])).zoom, .digital, "\(flags)")
        }
    }

    func testOneShotAutofocusIsPreferredAndReportsTheCentre() throws {
        let device = FakeDevice([V4L2ControlInfo(id: V4L2ControlID.autoFocusStart, minimum: 0, maximum: 1),
                                 V4L2ControlInfo(id: V4L2ControlID.focusAuto, minimum: 0, maximum: 1)])
        let controls = try V4L2Controls(probing: device)
        XCTAssertTrue(controls.canFocus)
        let point = try controls.focus(at: (0.25, 0.75), frame: (640, 480), on: device)
        XCTAssertEqual([point.x, point.y], [0.5, 0.5])
        XCTAssertEqual(device.sets.map(\.id), [V4L2ControlID.autoFocusStart])
    }

    func testAFailedAutofocusStatusIsSetFocusFailed() throws {
        let device = FakeDevice([V4L2ControlInfo(id: V4L2ControlID.autoFocusStart, minimum: 0, maximum: 1),
                                 V4L2ControlInfo(id: V4L2ControlID.autoFocusStatus, minimum: 0, maximum: 7, isReadOnly: true)],
                                values: [V4L2ControlID.autoFocusStatus: 4])
        XCTAssertThrowsError(try V4L2Controls(probing: device).focus(at: (0.25, 0.75), frame: (640, 480), on: device)) {
            guard case CameraError.focusFailed = $0 else { return XCTFail("\($0)") }
        }
    }

    func testContinuousAutofocusWhenThereIsNoOneShot() throws {
        let device = FakeDevice([V4L2ControlInfo(id: V4L2ControlID.focusAuto, minimum: 0, maximum: 1)])
        let controls = try V4L2Controls(probing: device)
        _ = try controls.focus(at: (0.25, 0.75), frame: (640, 480), on: device)
        XCTAssertEqual(device.values[V4L2ControlID.focusAuto], 1)
    }

    func testNoUsableFocusControlIsFocusFailed() throws {
        let disabled = FakeDevice([V4L2ControlInfo(id: V4L2ControlID.autoFocusStart, minimum: 0, maximum: 1, isDisabled: true),
                                   V4L2ControlInfo(id: V4L2ControlID.focusAuto, minimum: 0, maximum: 1, isInactive: true)])
        for device in [FakeDevice(), disabled] {
            let controls = try V4L2Controls(probing: device)
            XCTAssertFalse(controls.canFocus)
            XCTAssertThrowsError(try controls.focus(at: (0.25, 0.75), frame: (640, 480), on: device)) {
                guard case CameraError.focusFailed = $0 else { return XCTFail("\($0)") }
            }
        }
    }

    private let regionRect = V4L2ControlID.regionOfInterestRect
    private let regionAuto = V4L2ControlID.regionOfInterestAuto

    /// UVC's region of interest: a square around the tapped point, auto-exposure and focus told to
    /// use it, autofocus started; the point reported is the centre of the region the camera kept.
    func testARegionOfInterestFocusesAndMetersAtThePointTheCameraKept() throws {
        let device = FakeDevice([V4L2ControlInfo(id: V4L2ControlID.autoFocusStart, minimum: 0, maximum: 1),
                                 V4L2ControlInfo(id: regionRect, minimum: 0, maximum: 0),
                                 V4L2ControlInfo(id: regionAuto, minimum: 0, maximum: 0xff)])
        let controls = try V4L2Controls(probing: device)
        let point = try controls.focus(at: (0.25, 0.75), frame: (640, 480), on: device)
        // 12.5 % of 480 is 60 px: centred on (160, 360).
        XCTAssertEqual(device.rectangles[regionRect], V4L2Rectangle(left: 130, top: 330, width: 60, height: 60))
        XCTAssertEqual([point.x, point.y], [0.25, 0.75])
        XCTAssertEqual(device.values[regionAuto], 0b1001, "auto-exposure and focus")
        XCTAssertEqual(device.sets.map(\.id), [regionAuto, V4L2ControlID.autoFocusStart])

        // A camera that aligns the region to 16 px reports where it really is.
        device.adjust = { V4L2Rectangle(left: $0.left / 16 * 16, top: $0.top / 16 * 16, width: 64, height: 64) }
        let aligned = try controls.focus(at: (0.25, 0.75), frame: (640, 480), on: device)
        XCTAssertEqual([aligned.x, aligned.y], [(128.0 + 32) / 640, (320.0 + 32) / 480])
        // At a corner the square stays inside the frame.
        XCTAssertEqual(V4L2Controls.region(around: (1, 1), in: (640, 480)), V4L2Rectangle(left: 580, top: 420, width: 60, height: 60))
        XCTAssertEqual(V4L2Controls.region(around: (0, 0), in: (640, 480)), V4L2Rectangle(left: 0, top: 0, width: 60, height: 60))
    }

    /// Without a region control, the point cannot reach the camera: the centre it focuses on is
    /// what is reported (LensFocusResult.isFallback), never the point asked for.
    func testWithoutARegionTheCentreIsReportedNotThePoint() throws {
        let device = FakeDevice([V4L2ControlInfo(id: V4L2ControlID.focusAuto, minimum: 0, maximum: 1),
                                 V4L2ControlInfo(id: regionRect, minimum: 0, maximum: 0, isDisabled: true)])
        let point = try V4L2Controls(probing: device).focus(at: (0.25, 0.75), frame: (640, 480), on: device)
        XCTAssertEqual([point.x, point.y], [0.5, 0.5])
        XCTAssertNil(device.rectangles[regionRect])
    }

    func testOrientationControlDecidesThePosition() {
        let orientation = V4L2ControlInfo(id: V4L2ControlID.cameraOrientation, minimum: 0, maximum: 2, isReadOnly: true)
        let expected: [Int32: CameraPosition?] = [0: .front, 1: .back, 2: .external, 7: nil]
        for (value, position) in expected {
            let device = FakeDevice([orientation], values: [V4L2ControlID.cameraOrientation: value])
            XCTAssertEqual(V4L2Controls.orientation(of: device), position, "orientation \(value)")
        }
        XCTAssertNil(V4L2Controls.orientation(of: FakeDevice()))
        var disabled = orientation
        disabled.isDisabled = true
        XCTAssertNil(V4L2Controls.orientation(of: FakeDevice([disabled], values: [V4L2ControlID.cameraOrientation: 0])))
    }

    func testPositionsFallBackFromDeviceToConfigurationToOrder() {
        let paths = ["/dev/video0", "/dev/video2", "/dev/video4", "/dev/video6"]
        XCTAssertEqual(V4L2Positions.assign(paths: paths, reported: [nil, nil, nil, nil], configured: [:]),
                       [.back, .front, .external, .external])
        XCTAssertEqual(V4L2Positions.assign(paths: paths, reported: [.front, nil, nil, nil],
                                            configured: ["/dev/video0": .back, "/dev/video2": .back]),
                       [.front, .back, .external, .external])
    }

    // MARK: Flash (V4L2_CID_FLASH_LED_MODE on an LED-flash subdevice)

    private let ledMode = V4L2ControlID.flashLEDMode
    private let strobe = V4L2ControlID.flashStrobe
    private let none: Int32 = 0, flash: Int32 = 1, torch: Int32 = 2

    private func ledModeInfo(isDisabled: Bool = false, isInactive: Bool = false, isReadOnly: Bool = false) -> V4L2ControlInfo {
        V4L2ControlInfo(id: ledMode, minimum: 0, maximum: 2, isDisabled: isDisabled, isInactive: isInactive, isReadOnly: isReadOnly)
    }

    private func camera(flash: V4L2Flash?) -> V4L2Camera {
        V4L2Camera(CameraDescription(path: "/dev/video9", name: "cam", driver: "uvcvideo", busInfo: "usb-1",
                                     position: .back, isVirtual: false, formats: ["MJPG"]),
                   settings: V4L2Camera.Settings(width: 640, height: 480, frameRate: 30, quality: 90), flash: flash)
    }

    func testWithoutAFlashSubdeviceTheCameraHasNoFlash() throws {
        XCTAssertNil(try V4L2Flash(probing: FakeDevice()))
        // The public initializer looks in /sys and finds no subdevice for a node that is not there.
        let template = camera(flash: nil)
        let camera = V4L2Camera(template.description, settings: template.settings)
        XCTAssertFalse(camera.state.hasFlash)
        XCTAssertFalse(camera.state.isFlashAvailable)
        XCTAssertEqual(camera.state.supportedFlashModes, [])
        XCTAssertThrowsError(try camera.setFlashMode(.on)) {
            guard case CameraError.unsupported = $0 else { return XCTFail("\($0)") }
        }
    }

    func testTheLEDModeMenuDecidesWhatOnLights() throws {
        let expected: [([Int64], Int32?)] = [([0, 1, 2], flash), ([0, 2], torch), ([0, 1], flash), ([0], nil), ([1, 2], nil)]
        for (menu, onMode) in expected {
            let device = FakeDevice([ledModeInfo()])
            device.menus[ledMode] = menu
            XCTAssertEqual(try V4L2Flash(probing: device)?.onMode, onMode, "menu \(menu)")
        }
        let flash = try XCTUnwrap(V4L2Flash(probing: FakeDevice([ledModeInfo()])))
        XCTAssertEqual(camera(flash: flash).state.supportedFlashModes, [.off, .on])
        XCTAssertTrue(camera(flash: flash).state.hasFlash)
    }

    func testADisabledOrReadOnlyLEDModeIsNoFlash() throws {
        XCTAssertNil(try V4L2Flash(probing: FakeDevice([ledModeInfo(isDisabled: true)])))
        XCTAssertNil(try V4L2Flash(probing: FakeDevice([ledModeInfo(isReadOnly: true)])))
    }

    func testAnInactiveLEDModeMakesTheFlashUnavailableUntilItRecovers() throws {
        let device = FakeDevice([ledModeInfo(), V4L2ControlInfo(id: strobe, minimum: 0, maximum: 1)])
        let camera = camera(flash: try XCTUnwrap(V4L2Flash(probing: device)))
        XCTAssertTrue(camera.state.isFlashAvailable)
        device.controls[ledMode] = ledModeInfo(isInactive: true)  // e.g. a fault or overheating
        XCTAssertTrue(camera.state.hasFlash)
        XCTAssertFalse(camera.state.isFlashAvailable)
        // An unavailable flash does not fire: the photo is taken without it.
        try camera.setFlashMode(.on)
        try V4L2Flash(probing: device)?.beforeCapture(.on)
        XCTAssertTrue(device.sets.isEmpty)
        device.controls[ledMode] = ledModeInfo()
        XCTAssertTrue(camera.state.isFlashAvailable)
    }

    func testOnArmsTheFlashAndStrobesItBeforeTheFrame() throws {
        let device = FakeDevice([ledModeInfo(), V4L2ControlInfo(id: strobe, minimum: 0, maximum: 1)])
        let flash = try XCTUnwrap(V4L2Flash(probing: device))
        try flash.beforeCapture(.off)
        XCTAssertTrue(device.sets.isEmpty)
        try flash.beforeCapture(.on)
        try flash.afterCapture(.on)
        XCTAssertEqual(device.sets.map { [$0.id, UInt32($0.value)] }, [[ledMode, UInt32(self.flash)], [strobe, 1]])
    }

    func testWithoutAStrobeControlTheSensorFiresTheFlash() throws {
        let device = FakeDevice([ledModeInfo(), V4L2ControlInfo(id: strobe, minimum: 0, maximum: 1, isDisabled: true)])
        try XCTUnwrap(V4L2Flash(probing: device)).beforeCapture(.on)
        XCTAssertEqual(device.sets.map { [$0.id, UInt32($0.value)] }, [[ledMode, UInt32(flash)]])
    }

    func testATorchOnlyLEDIsLitJustForTheCapture() throws {
        let device = FakeDevice([ledModeInfo(), V4L2ControlInfo(id: strobe, minimum: 0, maximum: 1)])
        device.menus[ledMode] = [0, 2]
        let flash = try XCTUnwrap(V4L2Flash(probing: device))
        XCTAssertFalse(flash.strobes)
        try flash.beforeCapture(.on)
        try flash.afterCapture(.on)
        XCTAssertEqual(device.sets.map(\.value), [torch, none])
    }

    func testAutoIsInvalidAndTogglingGoesOffOnOff() throws {
        let device = FakeDevice([ledModeInfo()])
        let camera = camera(flash: try XCTUnwrap(V4L2Flash(probing: device)))
        XCTAssertThrowsError(try camera.setFlashMode(.auto)) {
            guard case CameraError.invalidArgument = $0 else { return XCTFail("\($0)") }
        }
        // ToggleFlash steps through supportedFlashModes from the current mode (Session.toggleFlash).
        var seen: [FlashMode] = []
        for _ in 0..<3 {
            let modes = camera.state.supportedFlashModes
            let next = modes[((modes.firstIndex(of: camera.state.flashMode) ?? -1) + 1) % modes.count]
            try camera.setFlashMode(next)
            seen.append(camera.state.flashMode)
        }
        XCTAssertEqual(seen, [.on, .off, .on])
        // `off` switches the LED off at once; `on` waits for the capture.
        XCTAssertEqual(device.sets.map { [$0.id, UInt32($0.value)] }, [[ledMode, UInt32(none)]])
    }

    func testFlashSubdevicesAreThoseOnTheVideoNodesDevice() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("v4l2flash-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let sysfs = root + "/video4linux"
        for device in ["isp", "other"] { try FileManager.default.createDirectory(atPath: "\(root)/devices/\(device)", withIntermediateDirectories: true) }
        for (node, device) in [("video0", "isp"), ("v4l-subdev1", "other"), ("v4l-subdev2", "isp"), ("v4l-subdev10", "isp")] {
            try FileManager.default.createDirectory(atPath: "\(sysfs)/\(node)", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: "\(sysfs)/\(node)/device", withDestinationPath: "\(root)/devices/\(device)")
        }
        XCTAssertEqual(V4L2Flash.subdevicePaths(forVideoNode: "/dev/video0", sysfs: sysfs), ["/dev/v4l-subdev2", "/dev/v4l-subdev10"])
        XCTAssertEqual(V4L2Flash.subdevicePaths(forVideoNode: "/dev/video4", sysfs: sysfs), [])
    }

    func testErrnoMapsToPermissionDeniedAndBusy() {
        XCTAssertEqual(SystemError("open", errno: .permissionDenied).cameraError(path: "/dev/video0"),
                       .permissionDenied("no permission to open /dev/video0 (open: Permission denied); lensd's user needs access to the video device"))
        guard case .busy(let message) = SystemError("VIDIOC_S_FMT", errno: Errno(rawValue: EBUSY)).cameraError(path: "/dev/video0") else {
            return XCTFail("EBUSY is not busy")
        }
        XCTAssertTrue(message.contains("in use by another program"), message)
    }
}
