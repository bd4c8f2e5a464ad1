import COpenSSL

/// Every attribute of an X.509 name in encoding order, as verifiers' reports print it (`C`, `ST`,
/// `L`, `O`, `OU`, `CN`, …: OpenSSL's short names, a dotted OID when it has none).
public struct NameAttribute: Sendable, Equatable {
    public let key: String
    public let value: String

    /// `name` is borrowed.
    static func all(in name: OpaquePointer) -> [NameAttribute] {
        (0..<X509_NAME_entry_count(name)).compactMap { index in
            guard let entry = X509_NAME_get_entry(name, index), let value = text(of: entry),
                  let object = X509_NAME_ENTRY_get_object(entry) else { return nil }
            let nid = OBJ_obj2nid(object)
            let key = nid != NID_undef ? OBJ_nid2sn(nid).map { String(cString: $0) } : nil
            return NameAttribute(key: key ?? ASN1Object.text(object, numeric: true), value: value)
        }
    }
}

/// A name entry's value as UTF-8, whatever ASN.1 string type it is stored in; `entry` is borrowed.
func text(of entry: OpaquePointer) -> String? {
    guard let data = X509_NAME_ENTRY_get_data(entry) else { return nil }
    var utf8: UnsafeMutablePointer<UInt8>?
    let length = ASN1_STRING_to_UTF8(&utf8, data)
    guard length >= 0, let utf8 else {
        ERR_clear_error()
        return nil
    }
    defer { lens_OPENSSL_free(utf8) }
    return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
}

extension Certificate {
    public var subjectAttributes: [NameAttribute] { NameAttribute.all(in: X509_get_subject_name(x509)) }
    public var issuerAttributes: [NameAttribute] { NameAttribute.all(in: X509_get_issuer_name(x509)) }

    /// The serial number's magnitude, big-endian, without leading zero bytes.
    public var serialNumber: [UInt8] {
        let serial = X509_get0_serialNumber(x509)
        let bytes = Array(UnsafeBufferPointer(start: ASN1_STRING_get0_data(serial), count: Int(ASN1_STRING_length(serial))))
        return Array(bytes.drop { $0 == 0 })
    }
}
