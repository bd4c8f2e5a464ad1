import Foundation
import LensClient

/// The screen shown instead of the camera when there is no session: what happened and what to do.
enum Unavailability {
    static func describe(_ error: LensClientError) -> (title: String, advice: String) {
        switch error {
        case .unreachable:
            (tr("lensd is not running"),
             tr("Start the camera service:  sudo systemctl start lensd\nThe camera appears as soon as it runs."))
        case .notAuthorized:
            (tr("You are not in group lens"),
             tr("Only members of group lens may use the camera. An administrator can add you with\n  sudo usermod -aG lens %@\nthen log out and in again.",
                NSUserName()))
        case .disconnected:
            (tr("lensd stopped"), tr("Waiting for the camera service to come back…"))
        case .busy(let message):
            (tr("The camera is in use"), message + "\n" + tr("It is yours as soon as it is free."))
        default:
            (tr("The camera is not available"), error.message)
        }
    }
}
