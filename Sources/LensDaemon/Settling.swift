/// Stopping without losing a capture: a recording is stopped as StopVideoCapture would, and
/// every photo or video still on its way is stored and announced before lensd exits.
final class Settling: CaptureFlow {
    private var done: (() -> Void)?
    private let host: MachineHost

    init(host: MachineHost) { self.host = host }

    /// Calls `done` once nothing is being recorded, signed or stored (at once when nothing is).
    func settle(_ done: @escaping () -> Void) {
        self.done = done
        let machine = host.machine
        if machine.recording != nil || !machine.tickets.isEmpty {
            Log.info("finishing \(machine.tickets.count + (machine.recording == nil ? 0 : 1)) capture(s) before stopping")
        }
        host.transition { $0.stop() }
    }

    func handle(_ effect: CaptureMachine.Effect) {
        guard case .settled = effect, let done else { return }
        self.done = nil
        done()
    }
}
