import CPKCS11
import LensSystem
import Synchronization

/// A PKCS#11 module (the `pkcs11-module` shared object), loaded and C_Initialize'd once per path
/// for the life of the process: C_Finalize would end every session of the module, including
/// those of an identity still signing, and a second C_Initialize is an error.
/// The function list is immutable, and the module was initialized with CKF_OS_LOCKING_OK, so it
/// may be called from any thread.
final class PKCS11Module: Sendable {
    private let module: CHandle<OpaquePointer>
    let path: String

    var handle: OpaquePointer { module.pointer }

    private static let loaded = Mutex<[String: PKCS11Module]>([:])

    private init(handle: OpaquePointer, path: String) {
        // Never unloaded (see above): nothing to free.
        module = CHandle(owning: handle) { _ in }
        self.path = path
    }

    static func shared(_ path: String) throws(PKCS11Failure) -> PKCS11Module {
        let result: Result<PKCS11Module, PKCS11Failure> = loaded.withLock { modules in
            if let module = modules[path] { return .success(module) }
            var error = [CChar](repeating: 0, count: 512)
            guard let handle = lens_p11_load(path, &error, error.count) else {
                let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return .failure(PKCS11Failure("cannot load the PKCS#11 module \(path) (pkcs11-module): \(reason)"))
            }
            let code = lens_p11_initialize(handle)
            guard code == LENS_CKR_OK else {
                lens_p11_unload(handle)
                return .failure(PKCS11Failure("the PKCS#11 module \(path) failed C_Initialize: \(PKCS11ReturnCode.name(code))"))
            }
            let module = PKCS11Module(handle: handle, path: path)
            modules[path] = module
            return .success(module)
        }
        return try result.get()
    }

    /// Throws, naming `call`, unless `code` is CKR_OK.
    func check(_ code: UInt, _ call: String) throws(PKCS11Failure) {
        guard code != LENS_CKR_OK else { return }
        throw PKCS11Failure("\(call) failed in \(path): \(PKCS11ReturnCode.name(code))")
    }
}
