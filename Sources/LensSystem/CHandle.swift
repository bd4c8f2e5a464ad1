/// A C object (an OpenSSL key or certificate, a PKCS#11 module) that one Swift object owns and
/// that its library lets any thread use once made: freed with the handle, including when the
/// owner's init fails after taking it. The owners are then plainly Sendable: the C pointer is
/// the one thing Swift cannot check, and this is the one place it is claimed.
public final class CHandle<Pointer>: @unchecked Sendable {  // never mutated after init; the library allows concurrent use
    public let pointer: Pointer
    private let free: (Pointer) -> Void

    /// Takes ownership of `pointer`; `free` releases it when the handle goes.
    public init(owning pointer: Pointer, free: @escaping (Pointer) -> Void) {
        self.pointer = pointer
        self.free = free
    }

    deinit { free(pointer) }
}
