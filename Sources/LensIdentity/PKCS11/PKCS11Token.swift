import CPKCS11
import LensCrypto
import Synchronization

/// A logged-in session on the token whose label a `pkcs11:` URI names. One session serves every
/// call; the lock keeps one caller's C_SignInit/C_Sign or C_FindObjects* pairs from interleaving
/// with another's, as PKCS#11 requires of a session: `session` is only used under `lock`.
public final class PKCS11Token: Sendable {
    private let module: PKCS11Module
    private let session: UInt
    private let lock = Mutex<Void>(())
    public let label: String

    /// Opens a session on the token labelled `label` in `modulePath` and logs in with `pin`.
    public init(modulePath: String, label: String, pin: [UInt8], pinSource: String) throws(PKCS11Failure) {
        let module = try PKCS11Module.shared(modulePath)
        let slot = try Self.slot(labelled: label, in: module)
        var session: UInt = 0
        try module.check(lens_p11_open_session(module.handle, slot, &session), "C_OpenSession on token \(label)")
        let code = pin.withUnsafeBufferPointer { lens_p11_login(module.handle, session, $0.baseAddress, UInt($0.count)) }
        guard code == LENS_CKR_OK || code == LENS_CKR_USER_ALREADY_LOGGED_IN else {
            _ = lens_p11_close_session(module.handle, session)
            throw PKCS11Failure("the PKCS#11 token \(label) refused the PIN in \(pinSource) (\(PKCS11ReturnCode.name(code))); "
                                + "put the token's user PIN in pkcs11-pin-file")
        }
        self.module = module
        self.session = session
        self.label = label
    }

    deinit {
        _ = lens_p11_close_session(module.handle, session)
    }

    private static func slot(labelled label: String, in module: PKCS11Module) throws(PKCS11Failure) -> UInt {
        var count: UInt = 0
        try module.check(lens_p11_slots(module.handle, nil, &count), "C_GetSlotList")
        var slots = [UInt](repeating: 0, count: Int(count))
        try module.check(lens_p11_slots(module.handle, &slots, &count), "C_GetSlotList")
        var seen: [String] = []
        for slot in slots.prefix(Int(count)) {
            var raw = [UInt8](repeating: 0x20, count: 32)
            guard lens_p11_token_label(module.handle, slot, &raw) == LENS_CKR_OK else { continue }
            // Token labels are blank-padded to 32 bytes.
            let name = String(decoding: raw.reversed().drop { $0 == 0x20 }.reversed(), as: UTF8.self)
            if name == label { return slot }
            seen.append(name)
        }
        let present = seen.isEmpty ? "no token is present" : "tokens present: \(seen.joined(separator: ", "))"
        throw PKCS11Failure("no PKCS#11 token labelled \(label) in \(module.path) (\(present)); initialise it, "
                            + "e.g. softhsm2-util --init-token --free --label \(label)")
    }

    /// The first object of `keyClass` (LENS_CKO_*) labelled `label`, or nil.
    func find(_ keyClass: UInt, labelled label: String) throws(PKCS11Failure) -> UInt? {
        var keyClassValue = keyClass
        let labelBytes = Array(label.utf8)
        return try lock.withLock { _ throws(PKCS11Failure) -> UInt? in
            var found: UInt = 0
            var object: UInt = 0
            let code = withUnsafeMutableBytes(of: &keyClassValue) { classBytes in
                labelBytes.withUnsafeBufferPointer { labelBuffer in
                    var template = [
                        lens_p11_attribute(type: LENS_CKA_CLASS, value: classBytes.baseAddress, length: UInt(classBytes.count)),
                        lens_p11_attribute(type: LENS_CKA_LABEL, value: UnsafeMutableRawPointer(mutating: labelBuffer.baseAddress),
                                           length: UInt(labelBuffer.count)),
                    ]
                    return lens_p11_find(module.handle, session, &template, UInt(template.count), &object, 1, &found)
                }
            }
            try module.check(code, "C_FindObjects for \(label)")
            return found == 0 ? nil : object
        }
    }

    /// The value of attribute `type` (LENS_CKA_*) of `object`.
    func attribute(_ type: UInt, of object: UInt) throws(PKCS11Failure) -> [UInt8] {
        try lock.withLock { _ throws(PKCS11Failure) -> [UInt8] in
            var query = lens_p11_attribute(type: type, value: nil, length: 0)
            try module.check(lens_p11_attribute_value(module.handle, session, object, &query), "C_GetAttributeValue")
            var value = [UInt8](repeating: 0, count: Int(query.length))
            let code = value.withUnsafeMutableBytes { buffer in
                var attribute = lens_p11_attribute(type: type, value: buffer.baseAddress, length: UInt(buffer.count))
                return lens_p11_attribute_value(module.handle, session, object, &attribute)
            }
            try module.check(code, "C_GetAttributeValue")
            return value
        }
    }

    /// CKM_ECDSA over a digest: the r‖s the module returns.
    func signECDSA(key: UInt, digest: [UInt8], signatureSize: Int) throws(PKCS11Failure) -> [UInt8] {
        try lock.withLock { _ throws(PKCS11Failure) -> [UInt8] in
            var signature = [UInt8](repeating: 0, count: signatureSize)
            var length = UInt(signatureSize)
            let code = lens_p11_sign_ecdsa(module.handle, session, key, digest, UInt(digest.count), &signature, &length)
            try module.check(code, "C_Sign on token \(label)")
            guard length == UInt(signatureSize) else {
                throw PKCS11Failure("C_Sign on token \(label) returned \(length) bytes, not the \(signatureSize) of r‖s")
            }
            return signature
        }
    }

    /// Creates a P-256 key pair labelled `label` on the token: the private half sensitive and
    /// never extractable, usable only to sign.
    func generateP256(labelled label: String) throws(PKCS11Failure) {
        // DER OID prime256v1 (1.2.840.10045.3.1.7), as CKA_EC_PARAMS wants it.
        var curve: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        var labelBytes = Array(label.utf8)
        var yes: UInt8 = 1
        var no: UInt8 = 0
        try lock.withLock { _ throws(PKCS11Failure) in
            var publicKey: UInt = 0
            var privateKey: UInt = 0
            let code = curve.withUnsafeMutableBytes { curveBytes in
                labelBytes.withUnsafeMutableBytes { labelBuffer in
                    withUnsafeMutablePointer(to: &yes) { yes in
                        withUnsafeMutablePointer(to: &no) { no in
                            func flag(_ type: UInt, _ value: UnsafeMutablePointer<UInt8>) -> lens_p11_attribute {
                                lens_p11_attribute(type: type, value: value, length: 1)
                            }
                            let labelAttribute = lens_p11_attribute(type: LENS_CKA_LABEL, value: labelBuffer.baseAddress,
                                                                    length: UInt(labelBuffer.count))
                            var publicTemplate = [
                                labelAttribute, flag(LENS_CKA_TOKEN, yes), flag(LENS_CKA_VERIFY, yes),
                                lens_p11_attribute(type: LENS_CKA_EC_PARAMS, value: curveBytes.baseAddress, length: UInt(curveBytes.count)),
                            ]
                            var privateTemplate = [
                                labelAttribute, flag(LENS_CKA_TOKEN, yes), flag(LENS_CKA_PRIVATE, yes), flag(LENS_CKA_SIGN, yes),
                                flag(LENS_CKA_SENSITIVE, yes), flag(LENS_CKA_EXTRACTABLE, no),
                            ]
                            return lens_p11_generate_ec_pair(module.handle, session, &publicTemplate, UInt(publicTemplate.count),
                                                             &privateTemplate, UInt(privateTemplate.count), &publicKey, &privateKey)
                        }
                    }
                }
            }
            try module.check(code, "C_GenerateKeyPair on token \(self.label)")
        }
    }
}
