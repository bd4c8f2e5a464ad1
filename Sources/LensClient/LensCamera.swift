import FoundationEssentials
import Glibc
import Dispatch
import LensBus
import LensContract
import LensSystem
import Synchronization

/// lensd's camera, as the mobile SDK's app object is: create one, start a capture session,
/// begin captures, and receive the thumbnail and then the signed photo through the delegate
/// (or `events`).
///
/// Creating a LensCamera connects to the bus and opens a session of lensd; it throws
/// `.unreachable` when there is no bus or no lensd, and `.notAuthorized` when the caller may not
/// use it — like the SDK's `try Lens(with:)`. There is no API key on Linux: the bus policy and
/// lensd's own check decide (root and members of group `lens` may use the camera). The session
/// belongs to this object's connection and ends with `close()` or deinit; lensd also closes
/// sessions idle for longer than its `session-idle-timeout` (then calls throw `.disconnected`).
///
/// Thread-safe. Every operation blocks until lensd answers, so call them from any thread but
/// not from a place that must never wait. The bus runs on a thread of its own; delegate calls
/// arrive on `delegateQueue`, in event order.
public final class LensCamera: Sendable {
    /// The D-Bus object path of this camera's session (for logs and busctl).
    public let sessionPath: String
    private let connection: ClientConnection
    let delivery: EventDelivery
    /// What the app may change at any time (`videoDirectory`).
    let settings = Mutex(Settings())

    struct Settings {
        var videoDirectory: URL? = FileManager.default.temporaryDirectory
    }

    /// - Parameters:
    ///   - bus: `.system` where lensd is installed; `.address(...)` for a private bus.
    ///   - delegate: kept weakly, as delegates are; it can also be set later.
    ///   - delegateQueue: where delegate methods run. Events keep their order on any queue.
    ///   - audio: false records this session's videos without sound (OpenSession's `audio`).
    public convenience init(bus: BusAddress = .system, delegate: (any LensCameraDelegate)? = nil,
                            delegateQueue: DispatchQueue = .main, audio: Bool = true) throws(LensClientError) {
        try self.init(bus: bus, delegate: delegate, delegateQueue: delegateQueue, audio: audio, holdingEvents: false)
    }

    /// `holdingEvents`: without a delegate, events wait for the first one (`sharedInstance`).
    init(bus: BusAddress, delegate: (any LensCameraDelegate)?, delegateQueue: DispatchQueue, audio: Bool,
         holdingEvents: Bool) throws(LensClientError) {
        let connection = try ClientConnection(bus)
        let delivery = EventDelivery(delegate: delegate, queue: delegateQueue, holdingEvents: holdingEvents)
        // Subscribed before OpenSession, so no signal of the new session can slip by. lensd sends
        // session signals to their owner only, so every one that arrives is this session's.
        try connection.beforeStart { bus in
            connection.keep(try bus.subscribe(sender: Lens1.busName, path: nil, interface: Lens1.sessionInterface,
                                              member: nil) { signal in
                if let event = LensEvent(signal) { delivery.deliver(event) }
            })
        }
        let reply = try connection.beforeStart { bus in
            try bus.call(destination: Lens1.busName, path: Lens1.managerPath, interface: Lens1.managerInterface,
                         member: "OpenSession", arguments: [.vardict(audio ? [:] : [Lens1.SessionOption.audio.rawValue: .bool(false)])])
        }
        guard let path = reply.first?.objectPathValue else { throw .internal("OpenSession answered \(reply)") }
        try connection.watchDaemon { reason in delivery.deliver(.disconnected(reason)) }
        sessionPath = path
        self.connection = connection
        self.delivery = delivery
        delivery.attach(self)
        connection.start()
    }

    deinit { close() }

    /// Ends the session (lensd releases the camera if this session holds it) and the
    /// connection. Later calls throw `.disconnected`. Idempotent.
    public func close() {
        connection.close()
        delivery.finish()
    }

    /// Calls can still reach lensd: not closed, connection not lost.
    var isConnected: Bool { connection.isUsable }

    /// Receives every event; set it at any time. Kept weakly.
    public var delegate: (any LensCameraDelegate)? {
        get { delivery.delegate }
        set { delivery.delegate = newValue }
    }

    /// Every event of this session, in order, for `for await` loops; ends after `.disconnected`
    /// or `close()`. One consumer.
    public var events: AsyncStream<LensEvent> { delivery.events }

    // MARK: Capture

    /// Claims the camera for this session; `.busy` names the user who holds it.
    public func startCaptureSession() throws(LensClientError) {
        _ = try sessionCall("StartCaptureSession")
    }

    /// Claims the camera for this session, waiting in lensd's queue while another session holds
    /// it: returns once this session holds it (first come, first served), or throws `.busy`
    /// naming the holder when `timeout` passes first. A holder that leaves its claim unused while
    /// others wait loses it after lensd's claim-idle-timeout (its delegate gets `.busy`).
    /// Who holds the camera now: `status().cameraHolder`.
    public func waitForCamera(timeout: Duration) throws(LensClientError) {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        // lensd answers Busy when the timeout passes; the call's own limit only guards against a lost reply.
        _ = try connection.call(path: sessionPath, interface: Lens1.sessionInterface, member: "WaitForCamera",
                                arguments: [.double(seconds)], timeout: timeout + .seconds(10))
    }

    /// Releases the camera. Stopping a session that holds nothing is not an error.
    public func stopCaptureSession() throws(LensClientError) {
        _ = try sessionCall("StopCaptureSession")
    }

    /// Takes a photo; returns its name (a lower-case UUID). The thumbnail and the signed photo
    /// follow as events; `.captureDisabled` says why capture is not possible now.
    public func beginCapture() throws(LensClientError) -> String {
        try Reply.single(try sessionCall("BeginCapture"), "BeginCapture") { $0.stringValue }
    }

    /// The exact signed bytes of a result of this user, read from the sealed memfd FetchResult
    /// hands out (from offset 0: the fd's offset is shared with anyone else holding it).
    public func fetchResult(_ name: String) throws(LensClientError) -> Data {
        try withResult(name) { (file, info) throws(LensClientError) in try ResultFile.read(file, size: info.size, name: name) }
    }

    /// Copies a result of this user — a video, which can be hundreds of MB — into `destination`
    /// at its current offset, without holding it in memory (sendfile where the destination
    /// takes it). Returns what lensd says of the bytes, including their SHA-256.
    @discardableResult
    public func fetchResult(_ name: String, into destination: borrowing FileDescriptor) throws(LensClientError) -> LensResultInfo {
        try withResult(name) { (file, info) throws(LensClientError) in
            try ResultFile.copy(file, size: info.size, to: destination, name: name)
            return info
        }
    }

    /// As above, into a descriptor the caller keeps open (a FileHandle's `fileDescriptor`).
    @discardableResult
    public func fetchResult(_ name: String, into destination: Int32) throws(LensClientError) -> LensResultInfo {
        try FileDescriptor.borrowing(destination) { (destination) throws(LensClientError) in
            try fetchResult(name, into: destination)
        }
    }

    /// FetchResult: runs `body` with the sealed memfd (closed afterwards) and its info.
    private func withResult<Result>(
        _ name: String, _ body: (borrowing FileDescriptor, LensResultInfo) throws(LensClientError) -> Result
    ) throws(LensClientError) -> Result {
        let reply = try sessionCall("FetchResult", [.string(name)])
        guard reply.count == 2, let fd = reply[0].fdValue else { throw .internal("FetchResult answered \(reply)") }
        let file = FileDescriptor(adopting: fd)
        return try body(file, try LensResultInfo(try Fields(reply[1], "FetchResult info")))
    }

    // MARK: Calls

    func sessionCall(_ member: String, _ arguments: [BusValue] = []) throws(LensClientError) -> [BusValue] {
        try connection.call(path: sessionPath, interface: Lens1.sessionInterface, member: member, arguments: arguments)
    }

    /// A control call: lensd's error answer also comes as a Failed signal, which is delivered as
    /// this control's (LensEvent.controlFailed).
    func controlCall(_ member: String, _ control: LensControl, _ arguments: [BusValue] = []) throws(LensClientError) -> [BusValue] {
        let delivery = delivery
        return try connection.call(path: sessionPath, interface: Lens1.sessionInterface, member: member, arguments: arguments,
                                   onError: { delivery.controlFailed(control, $0) })
    }

    func managerCall(_ member: String, _ arguments: [BusValue] = []) throws(LensClientError) -> [BusValue] {
        try connection.call(path: Lens1.managerPath, interface: Lens1.managerInterface, member: member, arguments: arguments)
    }

    /// org.freedesktop.DBus.Properties.GetAll, as fields.
    func allProperties(path: String, interface: String) throws(LensClientError) -> Fields {
        let reply = try connection.call(path: path, interface: Lens1.propertiesInterface, member: "GetAll",
                                        arguments: [.string(interface)])
        return try Fields(reply.first, "\(interface) properties")
    }

    /// org.freedesktop.DBus.Properties.Get on this session, unwrapped from its variant.
    func sessionProperty(_ name: String) throws(LensClientError) -> BusValue {
        let reply = try connection.call(path: sessionPath, interface: Lens1.propertiesInterface, member: "Get",
                                        arguments: [.string(Lens1.sessionInterface), .string(name)])
        return try Reply.single(reply, name) { $0.variantValue }
    }

    func setSessionProperty(_ name: String, _ value: BusValue) throws(LensClientError) {
        _ = try connection.call(path: sessionPath, interface: Lens1.propertiesInterface, member: "Set",
                                arguments: [.string(Lens1.sessionInterface), .string(name), .variant(value)])
    }
}

/// Checks of a reply's shape: a reply that does not match the contract is `.internal`.
enum Reply {
    static func single<T>(_ values: [BusValue], _ what: String, _ extract: (BusValue) -> T?) throws(LensClientError) -> T {
        guard values.count == 1, let value = extract(values[0]) else { throw .internal("lensd answered \(what) with \(values)") }
        return value
    }
}
