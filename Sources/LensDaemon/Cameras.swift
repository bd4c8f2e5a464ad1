import LensBus
import LensCamera
import LensCore

/// The cameras as the loop sees them: the rig (whose thread runs every call to a camera), the
/// last state each reported, which one is current, and whether its device is still there.
/// Cameras are found again by hot-plug polling, never under a claim. It closes the camera when a
/// claim ends.
final class Cameras: CaptureFlow {
    /// Replaced when hot-plug finds new cameras, only while no session holds the camera.
    private(set) var rig: CameraRig
    /// Per camera, the last state its thread reported.
    private(set) var states: [CameraState]
    private(set) var currentIndex: Int
    /// The current camera's device node exists (always true for the synthetic camera).
    private(set) var isConnected = true
    /// The /sys device nodes hot-plug polling last looked at.
    private var knownNodes: [String] = []
    private let configuration: Configuration
    private let loop: any LoopExecutor
    private let host: MachineHost
    private let sessions: Sessions
    /// A camera came, went or came back: the capture conditions changed.
    var availabilityChanged: () -> Void = {}

    init(_ cameras: [any Camera], configuration: Configuration, loop: any LoopExecutor, host: MachineHost, sessions: Sessions) {
        self.configuration = configuration
        self.loop = loop
        self.host = host
        self.sessions = sessions
        rig = CameraRig(cameras)
        states = rig.initialStates
        currentIndex = CameraSelection.initial(states.map(\.description.position)) ?? 0
    }

    var descriptions: [CameraDescription] { rig.descriptions }
    var current: CameraState? { states.indices.contains(currentIndex) ? states[currentIndex] : nil }
    /// Capture's `camera` condition.
    var isAvailable: Bool { !rig.isEmpty && isConnected }

    func handle(_ effect: CaptureMachine.Effect) {
        guard case .claimEnded = effect else { return }
        rig.run(on: currentIndex, { $0.close() }) { _, _ in }
    }

    /// Hot-plug by polling /sys: netlink uevents do not reach containers.
    func start() {
        guard configuration.camera != .synthetic else { return }
        knownNodes = V4L2Discovery.nodePaths()
        loop.every(.seconds(1)) { [weak self] in self?.checkConnected() }
        loop.every(.seconds(2)) { [weak self] in self?.discover() }
    }

    func stop() { rig.stop() }

    /// Runs `body` on the camera thread with the current camera — the one current now, when the
    /// job is submitted — and `then` on the loop with its result, after its state is recorded.
    func run<T: Sendable>(_ body: @escaping @Sendable (any Camera) throws -> T,
                          then: @escaping (Result<T, Error>, CameraState) -> Void) {
        run(on: currentIndex, body, then: then)
    }

    func run<T: Sendable>(on index: Int, _ body: @escaping @Sendable (any Camera) throws -> T,
                          then: @escaping (Result<T, Error>, CameraState) -> Void) {
        let rig = rig, back = loop.confine((cameras: self, then: then))
        rig.run(on: index, body) { result, state in
            back.post { context in
                context.cameras.record(state, forCamera: index, of: rig)
                context.then(result, state)
            }
        }
    }

    /// Opens the current camera for a new claim; `then` on the loop.
    func open(then: @escaping (Result<CameraState, LensError>) -> Void) {
        let index = currentIndex, rig = rig
        run(on: index, { try $0.open() }) { result, state in
            switch result {
            case .success:
                then(.success(state))
                rig.run(on: index, { $0.streamSummary }) { summary, _ in
                    if case .success(let summary?) = summary { Log.info("camera: \(state.description.path) streams \(summary)") }
                }
            case .failure(let error): then(.failure(LensError.from(error)))
            }
        }
    }

    /// The claim moves to camera `new`: the current one closes, the new one opens (on failure the
    /// old one opens again).
    func move(to new: Int, then: @escaping (Result<CameraState, LensError>) -> Void) {
        let old = currentIndex
        rig.run(on: old, { $0.close() }) { _, _ in }
        run(on: new, { try $0.open() }) { [weak self] result, state in
            guard let self else { return }
            if case .failure(let error) = result {
                self.rig.run(on: old, { try $0.open() }) { _, _ in }
                return then(.failure(LensError.from(error)))
            }
            self.currentIndex = new
            then(.success(state))
        }
    }

    /// ChangeCamera (`path` nil): the camera facing the other way (CameraSelection); SelectCamera:
    /// the camera at `path`.
    func target(_ path: String?) -> Result<Int, LensError> {
        guard let path else {
            guard let index = CameraSelection.toggled(from: currentIndex, states.map(\.description.position)) else {
                let other = current?.description.position == .back ? "front" : "back"
                return .failure(.unsupported("there is no \(other) camera to switch to (others: ListDevices, then SelectCamera)"))
            }
            return .success(index)
        }
        guard let index = states.firstIndex(where: { $0.description.path == path }) else {
            return .failure(.notFound("lensd has no camera at \(path.prefix(256)); see ListDevices"))
        }
        return .success(index)
    }

    func index(facing position: CameraPosition) -> Int? {
        states.firstIndex { $0.description.position == position }
    }

    /// Records what a camera thread reported about camera `index` of `rig` — unless the rig was
    /// replaced since, or that index now holds another camera.
    private func record(_ state: CameraState, forCamera index: Int, of rig: CameraRig) {
        guard rig === self.rig, states.indices.contains(index), states[index].description.path == state.description.path else { return }
        let old = states[index]
        states[index] = state
        // A flash can stop being able to fire (a fault, overheating) or recover between calls:
        // the claim holder learns it as DeviceChanged, as after ChangeCamera.
        if index == currentIndex, (old.hasFlash, old.isFlashAvailable) != (state.hasFlash, state.isFlashAvailable),
           let holder = sessions.holder {
            holder.deviceChanged(state)
        }
    }

    /// Opening every node is the costly part of discovery, so it runs only while no camera is
    /// known (a node may just have become readable) or when the nodes in /sys changed. Cameras
    /// are never swapped under a claim: the look is put off until the claim ends.
    private func discover() {
        guard host.machine.holder == nil else { return }
        let nodes = V4L2Discovery.nodePaths()
        let nodesChanged = nodes != knownNodes
        guard rig.isEmpty || nodesChanged else { return }
        knownNodes = nodes
        let found = CameraCatalog.devices(configuration, logging: nodesChanged)
        let known = Set(rig.descriptions.map(\.path))
        // A vanished camera is left to the connection check, which disables and re-enables
        // capture; only cameras not seen before call for a new list.
        guard found.contains(where: { !known.contains($0.path) }) else { return }
        adopt(found)
    }

    /// A new rig for `devices`, keeping the current camera when it is still among them.
    private func adopt(_ devices: [CameraDescription]) {
        let currentPath = current?.description.path
        let old = rig
        rig = CameraRig(CameraCatalog.v4l2Cameras(devices, configuration))
        old.stop()
        states = rig.initialStates
        currentIndex = devices.firstIndex { $0.path == currentPath } ?? CameraSelection.initial(devices.map(\.position)) ?? 0
        isConnected = true
        availabilityChanged()
    }

    /// A vanished device ends the claim with CameraSessionFailed and disables capture (reason
    /// `camera`); when its node returns, capture is enabled again and a new claim reopens it.
    /// The state that comes back with the answer also carries the flash's availability.
    private func checkConnected() {
        guard !rig.isEmpty else { return }
        let index = currentIndex, rig = rig
        run(on: index, { $0.isConnected }) { [weak self] result, _ in
            guard let self, case .success(let connected) = result, rig === self.rig, index == self.currentIndex,
                  connected != self.isConnected else { return }
            let path = rig.descriptions[index].path
            self.isConnected = connected
            if connected {
                Log.info("camera: \(path) is back")
            } else {
                Log.warning("capture disabled (camera): \(path) disconnected or failed")
                if let holder = self.sessions.holder {
                    holder.failed(.cameraSessionFailed("the camera \(path) was disconnected"))
                    self.host.transition { $0.release(holder.number) }
                }
            }
            self.availabilityChanged()
        }
    }
}
