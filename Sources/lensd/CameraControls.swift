import Foundation
import LensBus
import LensCore

/// Camera controls and the claim's device, run on the camera thread and answered when done.
extension LensService {
    /// Runs a control on the camera thread and answers the call when it is done.
    func control<T: Sendable>(_ body: @escaping @Sendable (any Camera) throws -> T,
                              reply: DeferredReply, then: @escaping (T) -> [BusValue]) {
        let index = currentCamera
        let then = LoopBound(then)
        rig.run(on: index, body) { [weak self] result, state in
            self?.loop.post { [weak self] in
                guard let self else { return }
                self.record(state, forCamera: index)
                switch result {
                case .success(let value): reply.reply(then.value(value))
                case .failure(let error): reply.fail(LensError.from(error).busError)
                }
            }
        }
    }

    var currentState: CameraState? { cameraStates.indices.contains(currentCamera) ? cameraStates[currentCamera] : nil }

    /// ChangeCamera: the next camera in the list; the claim moves with it.
    func switchCamera(reply: DeferredReply, then: @escaping (CameraState) -> Void) {
        guard cameraStates.count > 1 else {
            reply.fail(LensError.unsupported("there is only one camera").busError)
            return
        }
        moveClaim(to: (currentCamera + 1) % cameraStates.count) { result in
            switch result {
            case .success(let state):
                reply.reply([Wire.device(state)])
                then(state)
            case .failure(let error): reply.fail(error.busError)
            }
        }
    }

    /// The claim moves to camera `new`: the current one closes, the new one opens (on failure the
    /// old one opens again). The holder's preview ends: the new picture may have another size.
    func moveClaim(to new: Int, then: @escaping (Result<CameraState, LensError>) -> Void) {
        let old = currentCamera, then = LoopBound(then)
        rig.run(on: old, { $0.close() }) { _, _ in }
        rig.run(on: new, { try $0.open() }) { [weak self] result, state in
            self?.loop.post { [weak self] in
                guard let self else { return }
                if case .failure(let error) = result {
                    self.rig.run(on: old, { try $0.open() }) { _, _ in }
                    return then.value(.failure(LensError.from(error)))
                }
                self.select(camera: new)
                self.record(state, forCamera: new)
                if let holder = self.claimHolder { self.endPreview(of: holder) }
                then.value(.success(state))
            }
        }
    }

    /// StartCaptureSession: the claim, then the device opened on its thread.
    func startCapture(for session: Session, reply: DeferredReply) {
        do { try claim(for: session) } catch {
            reply.fail(LensError.from(error).busError)
            return
        }
        rig.run(on: currentCamera, { try $0.open() }) { [weak self] result, state in
            self?.loop.post { [weak self] in
                guard let self else { return }
                self.record(state, forCamera: self.currentCamera)
                switch result {
                case .success:
                    reply.reply([])
                    self.rig.run(on: self.currentCamera, { $0.streamSummary }) { summary, _ in
                        if case .success(let summary?) = summary { Log.info("camera: \(state.description.path) streams \(summary)") }
                    }
                case .failure(let error):
                    self.release(session)
                    reply.fail(LensError.from(error).busError)
                }
            }
        }
    }
}
