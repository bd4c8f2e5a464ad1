import LensCamera
import LensCore

/// What belongs to one attachment of the camera claim (CaptureMachine.Attachment) while the
/// machine says it runs: whose it is and its sink on the claim's frame pipeline. The machine
/// decides when it begins and ends; PreviewFlow and FaceFlow each keep their one.
final class ClaimAttachment<Sink: FrameSink> {
    let session: Session
    let sink: Sink

    init(session: Session, sink: Sink) {
        self.session = session
        self.sink = sink
    }

    func belongs(to number: CaptureMachine.SessionID) -> Bool { session.number == number }
}
