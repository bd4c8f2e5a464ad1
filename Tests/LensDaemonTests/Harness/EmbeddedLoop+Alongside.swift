import Foundation
import Synchronization

extension EmbeddedLoop {
    /// Runs `body` on a thread of its own — a client that blocks, such as a preview reader — while
    /// this thread runs the loop, so that the daemon's posted work (the frame pump) goes on; then
    /// returns what `body` returned or throws what it threw.
    func run<T: Sendable>(alongside body: @escaping @Sendable () throws -> T, timeout: Duration = .seconds(60)) throws -> T {
        let outcome = Outcome<T>()
        Thread { [self] in
            outcome.set(Result { try body() })
            post {}  // wakes the loop's wait
        }.start()
        try run(until: { outcome.value != nil }, timeout: timeout, "a client's blocking work")
        return try outcome.value!.get()
    }

    /// Runs posted work for `duration` of real time, for a test whose subject is that nothing
    /// more happens (the daemon's clock does not move).
    func runQuietly(for duration: Duration) {
        try? run(until: { false }, timeout: duration, "nothing")
    }
}

/// The test process's open descriptors: the daemon's, in process, and the test's own.
func openDescriptors() throws -> Int {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
}

private final class Outcome<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, Error>?>(nil)
    func set(_ value: Result<T, Error>) { result.withLock { $0 = value } }
    var value: Result<T, Error>? { result.withLock { $0 } }
}
