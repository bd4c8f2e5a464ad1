import LensBus
import LensContract

extension DaemonHarness {
    /// Sends a call as `client` without waiting for its answer (WaitForCamera, a call that waits
    /// on a timeout the test reaches with `loop.advance(by:)`): the answer is there once the
    /// loop has run to it.
    func send(_ path: String, _ member: String, _ arguments: [BusValue] = [], from client: HarnessClient) throws -> PendingAnswer {
        try bus.call(path, member, arguments, from: client.name)
    }

    /// The Manager's CameraHolder as `client` reads it: a user name, "" when the camera is free.
    func cameraHolder(_ client: HarnessClient) throws -> String? {
        try client.get(Lens1.managerPath, "CameraHolder").stringValue
    }
}

extension PendingAnswer {
    /// "granted" for a reply, the error's short name for an error, nil while unanswered.
    var outcome: String? {
        value.map {
            switch $0 {
            case .success: "granted"
            case .failure(let error): error.shortName
            }
        }
    }
}
