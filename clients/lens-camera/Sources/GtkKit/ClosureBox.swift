import CGtk

/// A Swift closure handed to C as `gpointer` user data: retained while GLib holds it, released
/// by `releaseClosureBox` (a GDestroyNotify / GClosureNotify).
final class ClosureBox<Function> {
    let function: Function
    init(_ function: Function) { self.function = function }

    static func retained(_ function: Function) -> gpointer {
        Unmanaged.passRetained(ClosureBox(function)).toOpaque()
    }

    static func function(_ data: gpointer?) -> Function {
        Unmanaged<ClosureBox<Function>>.fromOpaque(data!).takeUnretainedValue().function
    }
}

/// Releases a ClosureBox whatever its function type (the type is not needed to release).
let releaseClosureBox: GClosureNotify = { data, _ in
    if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
}

let destroyClosureBox: GDestroyNotify = { data in
    if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
}
