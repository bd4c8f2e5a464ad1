import CV4L2

/// Zoom and focus on a V4L2 device, decided once from what the device reports
/// (VIDIOC_QUERY_EXT_CTRL: present, range, DISABLED/INACTIVE/READ_ONLY flags).
/// Zoom uses V4L2_CID_ZOOM_ABSOLUTE when it can be set, else digital zoom (the camera crops).
/// Focus uses one-shot autofocus, else continuous autofocus, else it cannot focus; at the tapped
/// point where the device has a region-of-interest control (UVC's V4L2_CID_REGION_OF_INTEREST_RECT),
/// with auto-exposure metered there too when V4L2_CID_REGION_OF_INTEREST_AUTO offers it.
struct V4L2Controls {
    enum Zoom: Equatable {
        /// Optical zoom over the control's range; `maxFactor` is what its maximum means.
        case optical(V4L2ControlInfo, maxFactor: Double)
        case digital
    }

    enum Focus: Equatable {
        case oneShot(status: V4L2ControlInfo?)
        case continuous
        case none
    }

    /// Digital zoom beyond this only magnifies noise.
    static let maxDigitalZoom = 4.0
    /// UVC reports zoom in device units; with a minimum of 0 the range has no physical ratio,
    /// so its maximum is taken to mean this factor.
    static let nominalOpticalZoom = 4.0

    /// The region of interest: a square of this share of the frame's shorter side around the point.
    static let regionShare = 0.125

    let zoom: Zoom
    let focus: Focus
    /// The device takes a region of interest; `regionUse` is what it may use it for (the bits of
    /// V4L2_CID_REGION_OF_INTEREST_AUTO lensd wants that the control allows), nil without that control.
    let takesRegion: Bool
    let regionUse: (info: V4L2ControlInfo, bits: Int32)?

    init(probing device: some V4L2ControlDevice) throws {
        if let info = try device.queryControl(V4L2ControlID.zoomAbsolute), info.isSettable, info.maximum > info.minimum {
            let maxFactor = info.minimum > 0 ? Double(info.maximum) / Double(info.minimum) : Self.nominalOpticalZoom
            zoom = .optical(info, maxFactor: maxFactor)
        } else {
            zoom = .digital
        }
        if let start = try device.queryControl(V4L2ControlID.autoFocusStart), !start.isDisabled, !start.isReadOnly {
            focus = .oneShot(status: try device.queryControl(V4L2ControlID.autoFocusStatus).flatMap { $0.isDisabled ? nil : $0 })
        } else if let auto = try device.queryControl(V4L2ControlID.focusAuto), auto.isSettable {
            focus = .continuous
        } else {
            focus = .none
        }
        takesRegion = try device.queryControl(V4L2ControlID.regionOfInterestRect).map(\.isSettable) ?? false
        let wanted = Int64(CV4L2_REGION_OF_INTEREST_AUTO_FOCUS | CV4L2_REGION_OF_INTEREST_AUTO_EXPOSURE)
        if takesRegion, let auto = try device.queryControl(V4L2ControlID.regionOfInterestAuto), auto.isSettable,
           auto.maximum & wanted != 0 {
            regionUse = (auto, Int32(auto.maximum & wanted))
        } else {
            regionUse = nil
        }
    }

    var maxZoomFactor: Double {
        switch zoom {
        case .optical(_, let maxFactor): maxFactor
        case .digital: Self.maxDigitalZoom
        }
    }

    var canFocus: Bool { focus != .none }

    /// Sets the zoom (factor already validated ≥ 1) and returns the factor in effect: clamped to
    /// the maximum and, for optical zoom, rounded to the control's step.
    func setZoom(_ factor: Double, on device: some V4L2ControlDevice) throws -> Double {
        let factor = min(factor, maxZoomFactor)
        guard case .optical(let info, let maxFactor) = zoom else { return factor }
        let span = Double(info.maximum - info.minimum)
        let step = Double(max(info.step, 1))
        let offset = ((factor - 1) / (maxFactor - 1) * span / step).rounded() * step
        let value = min(info.maximum, info.minimum + Int64(offset))
        try device.setControl(info.id, to: Int32(clamping: value))
        return 1 + Double(value - info.minimum) / span * (maxFactor - 1)
    }

    /// Focuses at `point` (normalized) of a `frame`-sized picture and returns the point actually
    /// used: the centre of the region the device accepted, or — without a region control, where
    /// autofocus works on the device's own area — the centre, which is what it reports.
    func focus(at point: (x: Double, y: Double), frame: (width: Int, height: Int),
               on device: some V4L2ControlDevice) throws -> (x: Double, y: Double) {
        if focus == .none, !takesRegion { throw CameraError.focusFailed("this camera has no autofocus and no region-of-interest control: it cannot focus at a point") }
        var used = (x: 0.5, y: 0.5)
        if takesRegion {
            try device.setRectangle(V4L2ControlID.regionOfInterestRect, to: Self.region(around: point, in: frame))
            if let regionUse { try device.setControl(regionUse.info.id, to: regionUse.bits) }
            let accepted = try device.rectangle(V4L2ControlID.regionOfInterestRect)
            used = ((Double(accepted.left) + Double(accepted.width) / 2) / Double(frame.width),
                    (Double(accepted.top) + Double(accepted.height) / 2) / Double(frame.height))
        }
        switch focus {
        case .oneShot(let status):
            try device.setControl(V4L2ControlID.autoFocusStart, to: 1)
            if status != nil, try device.control(V4L2ControlID.autoFocusStatus) & Int32(V4L2_AUTO_FOCUS_STATUS_FAILED) != 0 {
                throw CameraError.focusFailed("the camera's autofocus failed")
            }
        case .continuous:
            try device.setControl(V4L2ControlID.focusAuto, to: 1)
        case .none:
            break  // a region for exposure only
        }
        return used
    }

    /// A square of `regionShare` of the shorter side, centred on the point and kept inside the frame.
    static func region(around point: (x: Double, y: Double), in frame: (width: Int, height: Int)) -> V4L2Rectangle {
        let side = max(1, Int((Double(min(frame.width, frame.height)) * regionShare).rounded()))
        func start(_ centre: Double, _ length: Int) -> Int32 {
            Int32(min(max(0, Int((centre * Double(length)).rounded()) - side / 2), max(0, length - side)))
        }
        return V4L2Rectangle(left: start(point.x, frame.width), top: start(point.y, frame.height),
                             width: UInt32(side), height: UInt32(side))
    }

    /// Where the sensor faces, from V4L2_CID_CAMERA_ORIENTATION; nil when the device does not say.
    static func orientation(of device: some V4L2ControlDevice) -> CameraPosition? {
        guard let info = try? device.queryControl(V4L2ControlID.cameraOrientation), !info.isDisabled,
              let value = try? device.control(V4L2ControlID.cameraOrientation) else { return nil }
        switch value {
        case 0: return .front
        case 1: return .back
        case 2: return .external
        default: return nil
        }
    }
}
