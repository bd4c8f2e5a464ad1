import FoundationEssentials
import Glibc
import Dispatch
import LensSystem
import LensBus
import LensContract
import Synchronization

/// A bus connection and the dedicated thread that runs its event loop (never a Dispatch
/// queue: libdispatch caps its global pool near the core count, even for blocked work).
/// sd-bus is not thread-safe, so once `start` has run the bus is touched on that thread only;
/// callers on other threads hand it their calls and block until the answer comes back.
/// `bus` and `registrations` belong to the loop thread once it runs (before, to the thread that
/// creates the connection); `state` is locked.
final class ClientConnection: @unchecked Sendable {  // `bus` and `registrations` are confined to the loop thread
    private let loop: EventLoop
    private let bus: BusConnection
    private var registrations: [any Cancellable] = []
    private let state = Mutex(State())
    private let loopEnded = DispatchSemaphore(value: 0)

    private struct State {
        var phase = Phase.created
        var waiters: [ObjectIdentifier: ReplyWaiter] = [:]
        /// Why calls now fail, once the bus or lensd has gone.
        var lost: LensClientError?
    }

    private enum Phase { case created, running, closed }

    init(_ address: BusAddress) throws(LensClientError) {
        do {
            loop = try EventLoop()
            bus = try BusConnection(address, loop: loop, description: "lensclient")
        } catch let error as BusError {
            // sd-bus says "connecting to …: <strerror>"; the cause is the last part.
            let cause = error.message.components(separatedBy: ": ").last ?? error.message
            throw .unreachable("cannot reach lensd: \(Self.describe(address)) is not available (\(cause)); is D-Bus running?")
        } catch {
            throw .unreachable("cannot reach lensd: \(Self.describe(address)) is not available (\(error))")
        }
    }

    deinit { close() }

    /// Work on the bus from the creating thread, before `start` (the loop is not running yet):
    /// the session's subscriptions and the first calls.
    func beforeStart<T>(_ body: (BusConnection) throws -> T) throws(LensClientError) -> T {
        precondition(state.withLock { $0.phase == .created }, "the loop thread owns the bus now")
        do {
            return try body(bus)
        } catch let error as BusError {
            throw LensClientError(error)
        } catch {
            throw .internal("\(error)")
        }
    }

    /// Keeps a subscription or peer track alive for the connection's lifetime. Before `start`.
    func keep(_ registration: any Cancellable) {
        registrations.append(registration)
    }

    /// Calls `onLost` once, on the loop thread, when lensd leaves the bus (exit, crash, restart:
    /// the session dies with it) or the bus connection drops. Before `start`.
    func watchDaemon(onLost: @escaping (LensClientError) -> Void) throws(LensClientError) {
        let report: (LensClientError) -> Void = { [weak self] reason in
            guard let self, state.withLock({ $0.lost == nil }) else { return }
            markLost(reason)
            onLost(reason)
        }
        try beforeStart { bus in
            let owner = try bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                     interface: "org.freedesktop.DBus", member: "GetNameOwner",
                                     arguments: [.string(Lens1.busName)])
            guard let unique = owner.first?.stringValue else { throw BusError.failed("GetNameOwner answered \(owner)") }
            keep(try bus.track(peer: unique) { report(.disconnected("lensd left the bus; its sessions are gone")) })
            // sd-bus synthesizes this signal locally when the connection to the bus breaks.
            keep(try bus.subscribe(sender: nil, path: "/org/freedesktop/DBus/Local", interface: "org.freedesktop.DBus.Local",
                                   member: "Disconnected") { _ in report(.disconnected("the bus connection was lost")) })
        }
    }

    /// Starts the loop thread and returns once it owns the loop, so that `call` from the
    /// creating thread is already a call from another thread.
    func start() {
        state.withLock { $0.phase = .running }
        let adopted = DispatchSemaphore(value: 0)
        loop.post { adopted.signal() }
        Threads.start(named: "lensclient-bus") { [self] in
            do { _ = try loop.run() } catch { markLost(.disconnected("the client's event loop failed: \(error)")) }
            // Closed before the last waiters are failed: a call either got in before (and is
            // failed here) or is refused.
            state.withLock { $0.phase = .closed }
            failWaiters()
            loopEnded.signal()
        }
        adopted.wait()
    }

    /// Calls a method of lensd and blocks until it answers (or `timeout` passes). From any
    /// thread but the loop's own.
    /// `onError` runs on the loop thread when lensd answers with an error, before any signal
    /// lensd sent after that answer is handed on.
    func call(path: String, interface: String, member: String, arguments: [BusValue] = [],
              timeout: Duration = .seconds(25),
              onError: (@Sendable (LensClientError) -> Void)? = nil) throws(LensClientError) -> [BusValue] {
        precondition(!loop.isOnLoopThread, "LensCamera calls block; they cannot run on its bus thread")
        let waiter = ReplyWaiter()
        let id = ObjectIdentifier(waiter)
        let refusal: LensClientError? = state.withLock { state in
            guard state.phase == .running else { return .disconnected("this LensCamera is closed") }
            if let lost = state.lost { return lost }
            state.waiters[id] = waiter
            return nil
        }
        if let refusal { throw refusal }
        defer { _ = state.withLock { $0.waiters.removeValue(forKey: id) } }
        loop.post { [bus] in
            do {
                try bus.callAsync(destination: Lens1.busName, path: path, interface: interface, member: member,
                                  arguments: arguments, timeout: timeout) { answer in
                    let answer = answer.mapError { LensClientError($0) }
                    if case .failure(let error) = answer { onError?(error) }
                    waiter.finish(answer)
                }
            } catch let error as BusError {
                waiter.finish(.failure(LensClientError(error)))
            } catch {
                waiter.finish(.failure(.internal("\(error)")))
            }
        }
        switch waiter.wait() {
        case .success(let values): return values
        case .failure(let error):
            // sd-bus fails pending calls with NoReply when the connection drops; say what happened.
            throw state.withLock { $0.lost } ?? error
        }
    }

    /// Running, and neither closed nor lost: calls can still reach lensd.
    var isUsable: Bool { state.withLock { $0.phase == .running && $0.lost == nil } }

    /// On the loop thread: the bus or lensd went away. Pending and later calls fail with `reason`.
    private func markLost(_ reason: LensClientError) {
        state.withLock { state in
            if state.lost == nil { state.lost = reason }
        }
        failWaiters()
    }

    /// Cancels the subscriptions, disconnects (lensd then ends the session) and stops the loop
    /// thread. Idempotent; must not run on the loop thread.
    func close() {
        let phase = state.withLock { state in
            defer { state.phase = .closed }
            return state.phase
        }
        switch phase {
        case .closed: return
        case .created:
            registrations.removeAll()
            bus.close()
        case .running:
            loop.post { [self] in
                registrations.removeAll()
                bus.close()
                loop.exit()
            }
            loopEnded.wait()
        }
    }

    private func failWaiters() {
        let (waiters, reason) = state.withLock { state in
            (Array(state.waiters.values), state.lost ?? .disconnected("the connection to lensd is closed"))
        }
        for waiter in waiters { waiter.finish(.failure(reason)) }
    }

    private static func describe(_ address: BusAddress) -> String {
        switch address {
        case .system: "the system bus"
        case .session: "the session bus"
        case .address(let address): address
        }
    }
}
