import COpenSSL

/// The subset of an X.509 name lensd issues and inspects.
public struct DistinguishedName: Sendable, Equatable {
    public var country: String?
    public var organization: String?
    public var organizationalUnit: String?
    public var commonName: String?

    public init(country: String? = nil, organization: String? = nil, organizationalUnit: String? = nil, commonName: String? = nil) {
        self.country = country
        self.organization = organization
        self.organizationalUnit = organizationalUnit
        self.commonName = commonName
    }

    /// e.g. "C=US, O=Lensd Test, OU=Devices, CN=cam 1"; only present parts, unescaped, for display.
    public var oneLine: String {
        Attribute.allCases.compactMap { attribute in
            self[keyPath: attribute.keyPath].map { "\(attribute.label)=\($0)" }
        }.joined(separator: ", ")
    }

    /// In encoding order: most general first, as X.500 names are written.
    private enum Attribute: CaseIterable {
        case country, organization, organizationalUnit, commonName

        var keyPath: WritableKeyPath<DistinguishedName, String?> {
            switch self {
            case .country: \.country
            case .organization: \.organization
            case .organizationalUnit: \.organizationalUnit
            case .commonName: \.commonName
            }
        }

        var label: String {
            switch self {
            case .country: "C"
            case .organization: "O"
            case .organizationalUnit: "OU"
            case .commonName: "CN"
            }
        }

        var nid: Int32 {
            switch self {
            case .country: NID_countryName
            case .organization: NID_organizationName
            case .organizationalUnit: NID_organizationalUnitName
            case .commonName: NID_commonName
            }
        }
    }

    /// Reads the first occurrence of each attribute; `name` is borrowed.
    init(x509Name name: OpaquePointer) {
        for attribute in Attribute.allCases {
            self[keyPath: attribute.keyPath] = Self.firstValue(of: attribute.nid, in: name)
        }
    }

    private static func firstValue(of nid: Int32, in name: OpaquePointer) -> String? {
        let index = X509_NAME_get_index_by_NID(name, nid, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index) else { return nil }
        return text(of: entry)
    }

    /// A new X509_NAME the caller must free.
    func makeX509Name() throws -> OpaquePointer {
        guard let name = X509_NAME_new() else { throw CryptoError.openSSL("encode name") }
        for attribute in Attribute.allCases {
            guard let value = self[keyPath: attribute.keyPath] else { continue }
            let bytes = Array(value.utf8)
            // OpenSSL picks each attribute's ASN.1 string type and enforces its size limits, e.g. C is two letters.
            guard X509_NAME_add_entry_by_NID(name, attribute.nid, MBSTRING_UTF8, bytes, Int32(bytes.count), -1, 0) == 1 else {
                X509_NAME_free(name)
                throw CryptoError.openSSL("encode name \(attribute.label)=\(value)")
            }
        }
        return name
    }
}
