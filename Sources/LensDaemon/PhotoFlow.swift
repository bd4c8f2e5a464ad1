import FoundationEssentials
import LensCore

/// The photo flow: BeginCapture → a ticket → a frame on the camera thread → PhotoPublisher
/// (InitialCaptureFinished, signed, stored, PhotoSigned).
final class PhotoFlow {
    private let host: MachineHost
    private let cameras: Cameras
    private let publisher: PhotoPublisher

    init(host: MachineHost, cameras: Cameras, publisher: PhotoPublisher) {
        self.host = host
        self.cameras = cameras
        self.publisher = publisher
    }

    /// Requires the claim and capture enabled (the session checks them); returns the photo's name.
    func capture(for session: Session) -> String {
        let ticket = host.beginCapture(.photo, name: UUID().uuidString.lowercased(), session: session.number)
        cameras.run({ try $0.capturePhoto() }) { [publisher] result, _ in
            publisher.publish(result, ticket: ticket, for: session)
        }
        return ticket.name
    }
}
