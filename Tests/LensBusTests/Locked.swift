import Synchronization

/// A value several threads of a test look at; a class so escaping closures can capture it.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    var value: Value {
        mutex.withLock { $0 }
    }

    func update(_ body: (inout Value) -> Void) {
        mutex.withLock { body(&$0) }
    }
}
