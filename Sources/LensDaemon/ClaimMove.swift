import LensCamera
import LensCore

/// Moving the claim to another camera (ChangeCamera, SelectCamera, a face auto-capture's
/// camera_facing): the current camera closes, the new one opens, and the holder's preview ends
/// (the new picture may have another size). The caller announces DeviceChanged in its order.
struct ClaimMove {
    let host: MachineHost
    let cameras: Cameras

    func move(to new: Int, then: @escaping (Result<CameraState, LensError>) -> Void) {
        cameras.move(to: new) { [host] result in
            if case .success = result { host.transition { $0.detach(.preview) } }
            then(result)
        }
    }
}
