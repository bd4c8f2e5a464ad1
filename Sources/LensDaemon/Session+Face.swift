import LensBus

/// Session's face auto-capture methods (FaceFlow does the work); all require the claim.
extension Session {
    /// Answered once the camera faces the asked way and the watch is on the frame pipeline.
    func startFaceAutoCapture(_ call: MethodCall) throws -> MethodResult {
        try requireClaim()
        guard cameraMode == "photo" else {
            throw LensError.unsupported("face auto-capture takes a photo; the camera mode is video")
        }
        try requireCaptureEnabled()
        let options = try FaceOptions(call.arguments.first?.vardictValue ?? [:])
        let controller = try service.faceController(for: self, options: options)
        let reply = DeferredReply(for: call)
        service.startFaceAutoCapture(for: self, controller: controller, facing: options.facing, reply: reply)
        return .deferred(reply)
    }

    func requestFaceCapture() throws -> MethodResult {
        try requireClaim()
        try service.requestFaceCapture(for: self)
        return .reply([])
    }

    func restartFaceAutoCapture() throws -> MethodResult {
        try requireClaim()
        try service.restartFaceAutoCapture(for: self)
        return .reply([])
    }

    /// Idempotent: stopping no auto-capture is not an error.
    func stopFaceAutoCapture() -> MethodResult {
        service.endFaceAutoCapture(of: self)
        return .reply([])
    }
}
