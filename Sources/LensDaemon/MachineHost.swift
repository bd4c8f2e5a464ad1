/// The event loop's one CaptureMachine. Flows ask it for transitions and questions; every
/// transition's effects go to every joined flow, effect by effect, in the order they joined
/// (what belongs to an ended claim ends before the camera closes). A refusal becomes the D-Bus
/// error the asker is answered with: decided by the machine, worded here.
final class MachineHost {
    typealias SessionID = CaptureMachine.SessionID

    private(set) var machine = CaptureMachine()
    private var flows: [WeakFlow] = []
    /// Who holds the camera, in words, for Busy ("the camera is in use by alice (session 3)").
    private let describeHolder: (SessionID) -> String?

    init(describeHolder: @escaping (SessionID) -> String?) {
        self.describeHolder = describeHolder
    }

    /// Flows receive every effect from now on, in this order.
    func join(_ joining: [CaptureFlow]) {
        flows += joining.map(WeakFlow.init)
    }

    /// A transition that may be refused; `asker` is the session answered with the refusal.
    func transition(by asker: SessionID?, _ body: (inout CaptureMachine) throws -> [CaptureMachine.Effect]) throws(LensError) {
        let effects: [CaptureMachine.Effect]
        do { effects = try body(&machine) } catch { throw explain(error, to: asker) }
        handOut(effects)
    }

    /// A transition that cannot be refused.
    func transition(_ body: (inout CaptureMachine) -> [CaptureMachine.Effect]) {
        handOut(body(&machine))
    }

    /// A question the machine answers with a refusal, or not.
    func require(by asker: SessionID, _ question: (CaptureMachine) throws -> Void) throws(LensError) {
        do { try question(machine) } catch { throw explain(error, to: asker) }
    }

    /// A capture begins (a photo, a chosen frame, a recovered video): its ticket.
    func beginCapture(_ kind: CaptureMachine.Ticket.Kind, name: String, session: SessionID?) -> CaptureMachine.Ticket {
        machine.beginCapture(kind, name: name, session: session)
    }

    /// The capture of `ticket` was stored and announced, or failed.
    func endCapture(_ ticket: CaptureMachine.Ticket) {
        transition { $0.endCapture(ticket) }
    }

    private func handOut(_ effects: [CaptureMachine.Effect]) {
        for effect in effects {
            for flow in flows { flow.value?.handle(effect) }
        }
    }

    private func explain(_ error: Error, to asker: SessionID?) -> LensError {
        guard let refusal = error as? CaptureMachine.Refusal else { return LensError.from(error) }
        switch refusal {
        case .heldBy(let holder): return .busy(describeHolder(holder) ?? "the camera is in use")
        case .noCamera: return .cameraSessionFailed("no camera is available")
        case .recordingBy(let session):
            return .busy(session == asker ? "this session is already recording" : "another session is recording")
        case .notClaimed: return .notStarted("call StartCaptureSession first")
        case .notRecording: return .notStarted("this session is not recording (call StartVideoCapture first)")
        case .recordingUnderWay(.camera):
            return .busy("changing the camera is not possible while recording video: a recording's encoder and "
                + "its manifest are bound to the camera it started on")
        case .recordingUnderWay(.mode): return .busy("the camera mode cannot change while recording")
        case .recordingUnderWay(.zoom):
            return .busy("zooming is not possible while recording on this camera: its digital zoom crops photos only, "
                + "not the video frames it streams")
        case .alreadyAttached(.faceAutoCapture):
            return .busy("a face auto-capture is running: RestartFaceAutoCapture or StopFaceAutoCapture it first")
        case .alreadyAttached(.preview): return .busy("a preview is open: ClosePreview it first")
        }
    }
}

/// The host does not keep flows alive: the wiring root owns them.
private struct WeakFlow {
    weak var value: CaptureFlow?
    init(_ value: CaptureFlow) { self.value = value }
}
