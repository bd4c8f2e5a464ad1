import LensBus

/// The camera controls. Each needs the claim (`startCaptureSession`) except the session's own
/// settings (camera mode, location accuracy); each also arrives as its event.
extension LensCamera {
    /// Photo (`beginCapture`) or video (`startVideoCapture`); the session's own setting.
    public var cameraMode: LensCameraMode {
        get throws(LensClientError) {
            let text = try sessionProperty("CameraMode").stringValue
            guard let mode = text.flatMap(LensCameraMode.init(rawValue:)) else { throw .internal("CameraMode is \(text ?? "not a string")") }
            return mode
        }
    }

    /// Throws `.busy` while this session is recording.
    public func setCameraMode(_ mode: LensCameraMode) throws(LensClientError) {
        try setSessionProperty("CameraMode", .string(mode.rawValue))
    }

    public func setFlashMode(_ mode: LensFlashMode) throws(LensClientError) {
        _ = try controlCall("SetFlashMode", .flashMode, [.string(mode.rawValue)])
    }

    /// The next of the camera's supported flash modes; returns the new one.
    public func toggleFlash() throws(LensClientError) -> LensFlashMode {
        let text = try Reply.single(try controlCall("ToggleFlash", .flashMode), "ToggleFlash") { $0.stringValue }
        guard let mode = LensFlashMode(rawValue: text) else { throw .internal("ToggleFlash answered \(text)") }
        return mode
    }

    /// Toggles between the back and the front camera, as the SDK does; returns the new one.
    /// `.unsupported` when there is no camera facing the other way, `.busy` while recording.
    public func changeCamera() throws(LensClientError) -> LensCaptureDevice {
        let reply = try controlCall("ChangeCamera", .camera)
        return try LensCaptureDevice(try Fields(reply.first, "ChangeCamera's device"))
    }

    /// Switches to the camera at `path` (from `devices()`), external ones too, as the SDK's
    /// choice from its list of cameras; returns it. `.notFound` for a path lensd does not list.
    public func changeCamera(to path: String) throws(LensClientError) -> LensCaptureDevice {
        let reply = try controlCall("SelectCamera", .camera, [.string(path)])
        return try LensCaptureDevice(try Fields(reply.first, "SelectCamera's device"))
    }

    /// Absolute zoom, 1 or more; clamped to the camera's maximum. Ends a pinch gesture.
    /// Returns the factor in use.
    public func setZoomFactor(_ factor: Double) throws(LensClientError) -> Double {
        try Reply.single(try controlCall("SetZoomFactor", .zoom, [.double(factor)]), "SetZoomFactor") { $0.doubleValue }
    }

    /// A pinch gesture's scale, cumulative from the gesture's start (the SDK's zoom(with:)):
    /// the factor at the gesture's start times `scale`, clamped at both ends — pass each update
    /// of the recognizer as it comes. A gesture starts after 300 ms without a call, or after
    /// `setZoomFactor` or `changeCamera`. Returns the factor in use.
    public func zoom(by scale: Double) throws(LensClientError) -> Double {
        try Reply.single(try controlCall("Zoom", .zoom, [.double(scale)]), "Zoom") { $0.doubleValue }
    }

    /// Focuses at a normalized point; returns the point the camera actually used, which is the
    /// centre when the camera can only focus its own area (`isFallback`). Throws
    /// `.setFocusFailed` when the camera cannot focus at all, `.invalidArgument` outside 0...1.
    @discardableResult
    public func focus(at point: LensPoint) throws(LensClientError) -> LensFocusResult {
        let reply = try controlCall("FocusAt", .focus, [.double(point.x), .double(point.y)])
        guard reply.count == 2, let x = reply[0].doubleValue, let y = reply[1].doubleValue else {
            throw .internal("FocusAt answered \(reply)")
        }
        return LensFocusResult(point: LensPoint(x: x, y: y), requested: point)
    }

    /// The worst fix this session accepts, in metres (3...1500). False, and nothing changes,
    /// outside that range — as on the SDK.
    public func setMaximumLocationAccuracy(_ meters: Double) throws(LensClientError) -> Bool {
        try Reply.single(try sessionCall("SetMaximumLocationAccuracy", [.double(meters)]), "SetMaximumLocationAccuracy") {
            $0.boolValue
        }
    }
}
