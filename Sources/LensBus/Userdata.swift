/// sd-bus userdata pointers for Swift objects. A retained pointer keeps its object alive until
/// sd-bus destroys the slot or track that carries it and calls `release` (its destroy callback),
/// which also covers slots freed without ever firing, e.g. when the connection closes.
enum Userdata {
    static func retain(_ object: AnyObject) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(object).toOpaque()
    }

    static func borrow<Object: AnyObject>(_ pointer: UnsafeMutableRawPointer?, as _: Object.Type) -> Object {
        Unmanaged<Object>.fromOpaque(pointer!).takeUnretainedValue()
    }

    static let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
        guard let pointer else { return }
        Unmanaged<AnyObject>.fromOpaque(pointer).release()
    }
}
