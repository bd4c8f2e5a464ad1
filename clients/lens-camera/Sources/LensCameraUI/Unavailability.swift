import LensClient

/// The screen shown instead of the camera when there is no session: what happened and what to do.
enum Unavailability {
    static func describe(_ error: LensClientError) -> (title: String, advice: String) {
        switch error {
        case .unreachable:
            ("lensd is not running",
             "Start the camera service:  sudo systemctl start lensd\nThe camera appears as soon as it runs.")
        case .notAuthorized:
            ("You may not use the camera",
             "Members of group lens may. Ask an administrator to run\n  sudo usermod -aG lens $USER\nthen log out and in again.")
        case .disconnected:
            ("lensd stopped", "Waiting for the camera service to come back…")
        case .busy(let message):
            ("The camera is in use", "\(message)\nIt is yours as soon as it is free.")
        default:
            ("The camera is not available", error.message)
        }
    }
}
