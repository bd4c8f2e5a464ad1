import Foundation
import LensBus

/// A bus connection whose loop runs on a thread of its own, as the daemon's does; the test
/// thread reaches it only through `post` (wrapped by `onLoop`).
final class ServerThread: @unchecked Sendable {
    // @unchecked Sendable: `connection` is used on the loop thread once `start()` has run;
    // before that, the test thread that created it owns it.
    let loop: EventLoop
    let connection: BusConnection
    private let finished = DispatchSemaphore(value: 0)

    init(address: String) throws {
        loop = try EventLoop()
        connection = try BusConnection(.address(address), loop: loop, description: "test-server")
    }

    func start() {
        Thread { [self] in
            _ = try? loop.run()
            finished.signal()
        }.start()
    }

    /// Runs `body` on the loop thread and waits for its result.
    func onLoop<T: Sendable>(_ body: @escaping @Sendable (BusConnection) throws -> T) throws -> T {
        let result = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        loop.post { [connection] in
            let outcome = Result { try body(connection) }
            result.update { $0 = outcome }
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success else { throw TestTimeout() }
        return try result.value!.get()
    }

    func stop() {
        loop.post { [loop] in loop.exit() }
        finished.wait()
    }
}

struct TestTimeout: Error {}

/// Lets a loop-confined value (a registration) travel back to the test thread, which only
/// hands it back to the loop: `onLoop { _ in box.value.cancel() }`.
struct LoopBox<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
