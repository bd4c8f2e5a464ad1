/// An OpenSSL object (a key, a certificate, a token) that one Swift object owns: freed with the
/// handle, including when the owner's init fails after taking it. It lets the owners be plainly
/// Sendable: the C pointer is the only thing Swift cannot check.
final class OpenSSLHandle<Pointer>: @unchecked Sendable {  // never mutated after init; OpenSSL allows concurrent reads of it
    let pointer: Pointer
    private let free: (Pointer) -> Void

    /// Takes ownership of `pointer`; `free` releases it when the handle goes.
    init(owning pointer: Pointer, free: @escaping (Pointer) -> Void) {
        self.pointer = pointer
        self.free = free
    }

    deinit { free(pointer) }
}
