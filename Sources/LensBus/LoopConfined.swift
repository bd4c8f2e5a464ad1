/// A value that belongs to the loop thread, made there to be carried through other threads (a
/// worker's completion) and opened on the loop again. The one way loop-confined objects cross
/// threads: they need not be Sendable themselves.
public struct LoopConfined<Value>: @unchecked Sendable {  // `value` is only opened on `loop`'s thread
    private let confined: Value
    private let loop: any LoopExecutor

    init(_ value: Value, on loop: any LoopExecutor) {
        confined = value
        self.loop = loop
    }

    /// Loop thread only.
    public var value: Value {
        assert(loop.isOnLoopThread, "a loop-confined value was opened off the loop thread")
        return confined
    }

    /// Thread-safe: runs `body` with the value on the loop thread.
    public func post(_ body: @escaping @Sendable (Value) -> Void) {
        let confined = self
        loop.post { body(confined.confined) }
    }
}
