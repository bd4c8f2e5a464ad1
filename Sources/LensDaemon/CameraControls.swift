import Foundation
import LensBus
import LensCore

/// Camera controls and the claim's device, run on the camera thread and answered when done.
extension LensService {
    /// Runs a control on the camera thread and answers the call when it is done; a failure is
    /// also sent to `session` as Failed, after the reply.
    func control<T: Sendable>(_ body: @escaping @Sendable (any Camera) throws -> T, for session: Session,
                              reply: DeferredReply, then: @escaping (T) -> [BusValue]) {
        let index = currentCamera
        let then = LoopBound(then)
        rig.run(on: index, body) { [weak self] result, state in
            self?.loop.post { [weak self] in
                guard let self else { return }
                self.record(state, forCamera: index)
                switch result {
                case .success(let value): reply.reply(then.value(value))
                case .failure(let error): controlFailed(LensError.from(error), session: session, reply: reply)
                }
            }
        }
    }

    var currentState: CameraState? { cameraStates.indices.contains(currentCamera) ? cameraStates[currentCamera] : nil }

    /// ChangeCamera (`path` nil): the camera facing the other way (CameraSelection); SelectCamera:
    /// the camera at `path`. The claim moves with it.
    func switchCamera(to path: String?, for session: Session, reply: DeferredReply, then: @escaping (CameraState) -> Void) {
        let new: Int
        switch target(path) {
        case .success(let index): new = index
        case .failure(let error): return controlFailed(error, session: session, reply: reply)
        }
        guard new != currentCamera else { return reply.reply([Wire.device(cameraStates[new])]) }
        moveClaim(to: new) { [weak self] result in
            switch result {
            case .success(let state):
                reply.reply([Wire.device(state)])
                then(state)
            case .failure(let error): self?.controlFailed(error, session: session, reply: reply)
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

    private func target(_ path: String?) -> Result<Int, LensError> {
        guard let path else {
            let positions = cameraStates.map(\.description.position)
            guard let index = CameraSelection.toggled(from: currentCamera, positions) else {
                let other = currentState?.description.position == .back ? "front" : "back"
                return .failure(.unsupported("there is no \(other) camera to switch to (others: ListDevices, then SelectCamera)"))
            }
            return .success(index)
        }
        guard let index = cameraStates.firstIndex(where: { $0.description.path == path }) else {
            return .failure(.notFound("lensd has no camera at \(path.prefix(256)); see ListDevices"))
        }
        return .success(index)
    }

    /// A control that failed: the error reply, then Failed to its session.
    private func controlFailed(_ error: LensError, session: Session, reply: DeferredReply) {
        reply.fail(error.busError)
        session.failed(error)
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
