import CPKCS11
import LensCrypto

/// A P-256 private key object on a PKCS#11 token. lensd holds only its handle and public half:
/// signing sends the digest to the token (CKM_ECDSA), and the key is refused unless the token
/// marks it sensitive and not extractable.
public final class PKCS11Key: SigningKey {
    public let publicKey: PublicKey
    private let token: PKCS11Token
    private let handle: UInt

    /// The key `uri` names, after logging in with the PIN; nil when the token has no such key.
    /// With `create`, a missing key is generated on the token first.
    public static func open(_ uri: PKCS11URI, modulePath: String, pin: [UInt8], pinSource: String,
                            create: Bool) throws(PKCS11Failure) -> PKCS11Key? {
        let token = try PKCS11Token(modulePath: modulePath, label: uri.token, pin: pin, pinSource: pinSource)
        var privateKey = try token.find(LENS_CKO_PRIVATE_KEY, labelled: uri.object)
        if privateKey == nil && create {
            try token.generateP256(labelled: uri.object)
            privateKey = try token.find(LENS_CKO_PRIVATE_KEY, labelled: uri.object)
        }
        guard let privateKey else { return nil }
        guard let publicObject = try token.find(LENS_CKO_PUBLIC_KEY, labelled: uri.object) else {
            throw PKCS11Failure("token \(uri.token) has a private key \(uri.object) but no public key object of that label")
        }
        guard try token.attribute(LENS_CKA_SENSITIVE, of: privateKey) == [1],
              try token.attribute(LENS_CKA_EXTRACTABLE, of: privateKey) == [0]
        else {
            throw PKCS11Failure("the key \(uri.object) on token \(uri.token) can be exported (not CKA_SENSITIVE, or CKA_EXTRACTABLE); "
                                + "lensd signs only with keys that cannot leave the token")
        }
        let point = try token.attribute(LENS_CKA_EC_POINT, of: publicObject)
        return PKCS11Key(token: token, handle: privateKey, publicKey: try publicKeyP256(point, uri))
    }

    private init(token: PKCS11Token, handle: UInt, publicKey: PublicKey) {
        self.token = token
        self.handle = handle
        self.publicKey = publicKey
    }

    public func signECDSA(_ message: [UInt8], digest: DigestAlgorithm) throws -> [UInt8] {
        guard let curve = publicKey.curve else { throw PKCS11Failure("the token's key is not on a NIST curve") }
        return try token.signECDSA(key: handle, digest: Digest.hash(message, algorithm: digest), signatureSize: 2 * curve.coordinateSize)
    }

    /// CKA_EC_POINT is a DER OCTET STRING around the uncompressed point (some modules leave the
    /// wrapper off); the SubjectPublicKeyInfo is that point behind the fixed P-256 header.
    private static func publicKeyP256(_ attribute: [UInt8], _ uri: PKCS11URI) throws(PKCS11Failure) -> PublicKey {
        let point = attribute.count == 67 && attribute[0] == 0x04 && attribute[1] == 65 ? Array(attribute.dropFirst(2)) : attribute
        let header: [UInt8] = [0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
                               0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00]
        guard point.count == 65, point[0] == 0x04, let key = try? PublicKey(subjectPublicKeyInfoDER: header + point) else {
            throw PKCS11Failure("the key \(uri.object) on token \(uri.token) is not an EC key on P-256")
        }
        return key
    }
}
