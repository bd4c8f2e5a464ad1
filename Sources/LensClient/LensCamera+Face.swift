import LensBus

/// Face auto-capture: with the claim, `startFaceAutoCapture` watches the camera's frames; the
/// events `.faceDetected` (each processed frame, with the instruction to show),
/// `.candidateSelectionStarted` (once), `.faceAutoCaptureFinished` follow, then the chosen
/// frame's `.initialCaptureFinished` and `.photoSigned` under the same name.
extension LensCamera {
    /// Throws `.notStarted` without the claim, `.invalidArgument` naming a bad option, `.busy`
    /// while one runs, `.unsupported` when lensd has no face cascade.
    public func startFaceAutoCapture(configuration: LensFaceAutoCaptureConfiguration = .init()) throws(LensClientError) {
        _ = try sessionCall("StartFaceAutoCapture", [.vardict(configuration.options)])
    }

    /// The next processed frame becomes the selfie, whatever its quality.
    public func requestFaceCapture() throws(LensClientError) {
        _ = try sessionCall("RequestFaceCapture")
    }

    /// From the beginning: no good frames counted, no candidate kept.
    public func restartFaceAutoCapture() throws(LensClientError) {
        _ = try sessionCall("RestartFaceAutoCapture")
    }

    /// Nothing when none runs; a selfie already chosen is still signed.
    public func stopFaceAutoCapture() throws(LensClientError) {
        _ = try sessionCall("StopFaceAutoCapture")
    }

    /// idle, searching, candidate_selection or capturing.
    public var faceAutoCaptureState: String {
        get throws(LensClientError) {
            try Reply.single([try sessionProperty("FaceAutoCaptureState")], "FaceAutoCaptureState") { $0.stringValue }
        }
    }
}
