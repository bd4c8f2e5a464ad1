/// The part of an RFC 7512 `pkcs11:` URI lensd uses to find its key: the token's label and the
/// key object's label. The module and the PIN come from their own settings (`pkcs11-module`,
/// `pkcs11-pin-file`), so a URI that names them is refused rather than half-obeyed.
public struct PKCS11URI: Sendable, Equatable {
    public let token: String
    public let object: String

    public init(token: String, object: String) {
        self.token = token
        self.object = object
    }

    /// Why `text` is not a usable `pkcs11:token=…;object=…` URI is the thrown message.
    public init(parsing text: String) throws(PKCS11Failure) {
        let example = "e.g. pkcs11:token=lensd;object=device"
        guard text.hasPrefix("pkcs11:") else { throw PKCS11Failure("\(text) is not a pkcs11: URI (\(example))") }
        let body = text.dropFirst("pkcs11:".count)
        guard !body.contains("?") else {
            throw PKCS11Failure("\(text): query attributes are not read; set pkcs11-module and pkcs11-pin-file instead")
        }
        var attributes: [String: String] = [:]
        for part in body.split(separator: ";", omittingEmptySubsequences: true) {
            guard let eq = part.firstIndex(of: "="), let value = Self.percentDecoded(part[part.index(after: eq)...]) else {
                throw PKCS11Failure("\(text): \(part) is not attribute=value with %XX escapes (\(example))")
            }
            let name = String(part[..<eq])
            guard ["token", "object", "type"].contains(name) else {
                throw PKCS11Failure("\(text): attribute \(name) is not supported; lensd finds its key by token and object (\(example))")
            }
            attributes[name] = value
        }
        if let type = attributes["type"], type != "private" {
            throw PKCS11Failure("\(text): type=\(type) is not a private key")
        }
        guard let token = attributes["token"], !token.isEmpty, let object = attributes["object"], !object.isEmpty else {
            throw PKCS11Failure("\(text) must name both token and object (\(example))")
        }
        self.init(token: token, object: object)
    }

    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var rest = text.utf8[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            rest = rest.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// A PKCS#11 problem, as one sentence for the administrator.
public struct PKCS11Failure: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
