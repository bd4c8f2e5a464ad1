import Dispatch
import FoundationEssentials
import Synchronization

/// The SDK's way in: `LensCamera.sharedInstance`, `configureSession(…delegate:)`, and the folder
/// its video callbacks' URLs point into.
extension LensCamera {
    private static let shared = Mutex<(bus: BusAddress, camera: LensCamera?)>((.system, nil))

    /// The SDK's `LensCamera.sharedInstance`: one camera for the process, opened on first use on
    /// `sharedInstanceBus`, with no delegate until `configureSession` (events wait for it). nil
    /// when lensd cannot be reached or refuses the caller — `try LensCamera()` says why. One
    /// that was closed or lost its connection is replaced at the next use.
    public static var sharedInstance: LensCamera? {
        shared.withLock { shared in
            if let camera = shared.camera, camera.isConnected { return camera }
            shared.camera = try? LensCamera(bus: shared.bus, delegate: nil, delegateQueue: .main, audio: true, holdingEvents: true)
            return shared.camera
        }
    }

    /// The bus `sharedInstance` opens its camera on: the system bus unless set before (a
    /// private bus, tests). lensd's; the SDK has one camera per device.
    public static var sharedInstanceBus: BusAddress {
        get { shared.withLock { $0.bus } }
        set { shared.withLock { $0.bus = newValue } }
    }

    /// The SDK's `configureSession(previewView:delegate:)`: sets the delegate and the queue its
    /// calls run on. There is no view to pass on Linux: the preview is `openPreview`'s stream.
    /// Events that came before the first delegate are delivered to it now, in order.
    public func configureSession(delegate: any LensCameraDelegate, delegateQueue: DispatchQueue = .main) {
        delivery.configure(delegate: delegate, queue: delegateQueue)
    }

    /// Where the SDK's video callbacks find their files: before `lensCameraDidGenerateTruepicVideo`
    /// (and `…UnsignedVideo`) LensClient copies the video there as NAME.mp4, whole or not at all.
    /// The file is the app's to move or delete. Defaults to the temporary directory; nil: no
    /// copies (only `didGenerateTruepicVideo(name:info:)`; fetch with `fetchResult(_:into:)`).
    public var videoDirectory: URL? {
        get { settings.withLock { $0.videoDirectory } }
        set { settings.withLock { $0.videoDirectory = newValue } }
    }

    /// Copies the stored video `name` into `directory`; returns the file's URL.
    func copyVideo(_ name: String, into directory: URL) throws -> URL {
        let (path, _) = try OutputFile.write(to: .directory(directory.path), name: name, fileExtension: "mp4", overwrite: false) {
            try fetchResult(name, into: $0)
        }
        return URL(fileURLWithPath: path)
    }
}
