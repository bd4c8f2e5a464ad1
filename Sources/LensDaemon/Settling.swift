/// Stopping without losing a capture: a recording is stopped as StopVideoCapture would, and
/// every photo or video still on its way is stored and announced before lensd exits.
extension LensService {
    /// Calls `done` once nothing is being recorded, signed or stored (at once when nothing is).
    func settleCaptures(_ done: @escaping () -> Void) {
        recording?.stopRequested.store(true, ordering: .relaxed)
        guard recording != nil || capturesInFlight > 0 else { return done() }
        Log.info("finishing \(capturesInFlight + (recording == nil ? 0 : 1)) capture(s) before stopping")
        onCapturesSettled = done
    }

    /// A photo was asked for, or a finished recording went to be signed.
    func captureStarted() {
        capturesInFlight += 1
    }

    /// It was stored and announced, or failed.
    func captureEnded() {
        capturesInFlight -= 1
        capturesMaySettle()
    }

    /// A capture or recording ended: the camera claim's idle clock starts again from now (see
    /// CameraClaim), and a stop may now finish.
    func capturesMaySettle() {
        claimUsed()
        checkIdleClaim()
        guard recording == nil, capturesInFlight == 0, let done = onCapturesSettled else { return }
        onCapturesSettled = nil
        done()
    }
}
