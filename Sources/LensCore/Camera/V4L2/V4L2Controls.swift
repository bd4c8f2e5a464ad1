import CV4L2

/// Zoom and focus on a V4L2 device, decided once from what the device reports
/// (VIDIOC_QUERY_EXT_CTRL: present, range, DISABLED/INACTIVE/READ_ONLY flags).
/// Zoom uses V4L2_CID_ZOOM_ABSOLUTE when it can be set, else digital zoom (the camera crops).
/// Focus uses one-shot autofocus, else continuous autofocus, else it cannot focus.
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

    let zoom: Zoom
    let focus: Focus

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

    /// Focuses and returns the point actually used: V4L2 video nodes take no focus region, so
    /// autofocus works on the device's own area, reported as the centre.
    func focus(on device: some V4L2ControlDevice) throws -> (x: Double, y: Double) {
        switch focus {
        case .oneShot(let status):
            try device.setControl(V4L2ControlID.autoFocusStart, to: 1)
            if status != nil, try device.control(V4L2ControlID.autoFocusStatus) & Int32(V4L2_AUTO_FOCUS_STATUS_FAILED) != 0 {
                throw CameraError.focusFailed("the camera's autofocus failed")
            }
        case .continuous:
            try device.setControl(V4L2ControlID.focusAuto, to: 1)
        case .none:
            throw CameraError.focusFailed("this camera has no autofocus")
        }
        return (0.5, 0.5)
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
