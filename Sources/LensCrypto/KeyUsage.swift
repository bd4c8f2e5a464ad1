import COpenSSL

/// X.509 key usage. Bit n of `rawValue` is RFC 5280 KeyUsage bit n.
public struct KeyUsage: OptionSet, Sendable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    public static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
    public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    public static let cRLSign = KeyUsage(rawValue: 1 << 6)
    public static let encipherOnly = KeyUsage(rawValue: 1 << 7)
    public static let decipherOnly = KeyUsage(rawValue: 1 << 8)

    /// Each usage with OpenSSL's KU_* flag and its v3 configuration name.
    private static let openSSLNames: [(usage: KeyUsage, flag: Int32, name: String)] = [
        (.digitalSignature, KU_DIGITAL_SIGNATURE, "digitalSignature"),
        (.nonRepudiation, KU_NON_REPUDIATION, "nonRepudiation"),
        (.keyEncipherment, KU_KEY_ENCIPHERMENT, "keyEncipherment"),
        (.dataEncipherment, KU_DATA_ENCIPHERMENT, "dataEncipherment"),
        (.keyAgreement, KU_KEY_AGREEMENT, "keyAgreement"),
        (.keyCertSign, KU_KEY_CERT_SIGN, "keyCertSign"),
        (.cRLSign, KU_CRL_SIGN, "cRLSign"),
        (.encipherOnly, KU_ENCIPHER_ONLY, "encipherOnly"),
        (.decipherOnly, KU_DECIPHER_ONLY, "decipherOnly"),
    ]

    /// From X509_get_key_usage's KU_* flags.
    init(openSSLFlags: UInt32) {
        self = KeyUsage(Self.openSSLNames.filter { openSSLFlags & UInt32($0.flag) != 0 }.map(\.usage))
    }

    /// Comma-separated names for an X509V3 "keyUsage" configuration value.
    var configurationNames: String {
        Self.openSSLNames.filter { contains($0.usage) }.map(\.name).joined(separator: ",")
    }
}
