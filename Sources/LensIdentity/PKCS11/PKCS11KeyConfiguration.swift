import LensCrypto

/// Where a PKCS#11 device key is: the key's URI, the module to load, the file holding the PIN.
public struct PKCS11KeyConfiguration: Sendable {
    public var uri: PKCS11URI
    /// `pkcs11-module`, e.g. /usr/lib/softhsm/libsofthsm2.so.
    public var modulePath: String
    /// `pkcs11-pin-file`: the token's user PIN, root-owned and closed to other users.
    public var pinFile: String

    public init(uri: PKCS11URI, modulePath: String, pinFile: String) {
        self.uri = uri
        self.modulePath = modulePath
        self.pinFile = pinFile
    }

    /// The key, or nil when the token has none yet (unless `create`).
    func open(create: Bool) throws(IdentityFailure) -> (any SigningKey)? {
        let remedy = "check pkcs11-pin-file"
        let text = try CredentialFile.read(pinFile, "the PKCS#11 PIN file", isSecret: true, remedy: remedy)
        // A PIN file written by echo ends in a newline that is not part of the PIN.
        let pin = Array(text.utf8.reversed().drop { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }.reversed())
        do {
            return try PKCS11Key.open(uri, modulePath: modulePath, pin: pin, pinSource: pinFile, create: create)
        } catch {
            throw IdentityFailure(.invalid, error.description)
        }
    }
}
