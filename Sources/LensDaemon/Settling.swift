/// Stopping without losing a capture: a recording is stopped as StopVideoCapture would, and
/// every photo or video still on its way is stored and announced before lensd exits.
final class Settling: CaptureFlow {
    private var done: (() -> Void)?
    private unowned let service: LensService

    init(service: LensService) { self.service = service }

    /// Calls `done` once nothing is being recorded, signed or stored (at once when nothing is).
    func settle(_ done: @escaping () -> Void) {
        self.done = done
        let machine = service.machine
        if machine.recording != nil || machine.capturesInFlight > 0 {
            Log.info("finishing \(machine.capturesInFlight + (machine.recording == nil ? 0 : 1)) capture(s) before stopping")
        }
        service.transition { $0.stop() }
    }

    func handle(_ effect: CaptureMachine.Effect) {
        guard case .settled = effect, let done else { return }
        self.done = nil
        done()
    }
}
