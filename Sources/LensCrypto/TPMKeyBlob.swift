import COpenSSL

/// The parts of a "TSS2 PRIVATE KEY" (the TPM-wrapped blob OpenSSL's tpm2 provider writes, as
/// TPMKey keeps it): its parent and the TPM's own TPM2B_PUBLIC and TPM2B_PRIVATE, which only the
/// TPM that made them can load. The ASN.1 (TCG / OpenSSL-engine "TSSPRIVKEY": type OID
/// 2.23.133.10.1.3, [0] emptyAuth, parent INTEGER, pubkey OCTET STRING, privkey OCTET STRING) is
/// parsed by OpenSSL; the TPM structures stay bytes for tpm2-tss to unmarshal. Public for fuzz-tpm-key-blob.
public struct TPMKeyBlob {
    static let loadableKeyType = "2.23.133.10.1.3"
    /// TPM2_RH_OWNER: the parent is the owner hierarchy's primary made from the provider's template.
    static let ownerHierarchy: UInt32 = 0x4000_0001

    public let parent: UInt32
    public let publicArea: [UInt8]
    public let privateArea: [UInt8]

    public init(pem: String) throws {
        guard let block = try PEM.blocks(in: pem, Self.operation).first(where: { $0.label == "TSS2 PRIVATE KEY" }) else {
            throw CryptoError(operation: Self.operation, reason: "no TSS2 PRIVATE KEY block")
        }
        try self.init(der: block.der)
    }

    public init(der: [UInt8]) throws {
        let operation = Self.operation
        let sequence = try DER.decode(der, operation, { d2i_ASN1_SEQUENCE_ANY(nil, $0, $1) }, free: Self.free)
        defer { Self.free(sequence) }
        let elements = (0..<OPENSSL_sk_num(sequence)).compactMap {
            OPENSSL_sk_value(sequence, $0)?.assumingMemoryBound(to: ASN1_TYPE.self)
        }
        guard let type = elements.first, ASN1_TYPE_get(type) == V_ASN1_OBJECT,
              ASN1Object.text(type.pointee.value.object, numeric: true) == Self.loadableKeyType
        else { throw CryptoError(operation: operation, reason: "not a loadable TPM key (type \(Self.loadableKeyType))") }
        let integers = elements.filter { ASN1_TYPE_get($0) == V_ASN1_INTEGER }
        let octets = elements.filter { ASN1_TYPE_get($0) == V_ASN1_OCTET_STRING }.map { Self.bytes($0.pointee.value.octet_string) }
        var parent: UInt64 = 0
        guard integers.count == 1, ASN1_INTEGER_get_uint64(&parent, integers[0].pointee.value.integer) == 1,
              let parent32 = UInt32(exactly: parent), octets.count == 2
        else { throw CryptoError(operation: operation, reason: "expected a parent handle and the public and private areas") }
        self.parent = parent32 == 0 ? Self.ownerHierarchy : parent32
        publicArea = octets[0]
        privateArea = octets[1]
    }

    private static let operation = "read the TPM key blob"

    /// The TPMT_PUBLIC inside the TPM2B_PUBLIC (its 2-byte size first): what TPM2_Certify names.
    public var publicContents: [UInt8]? {
        guard publicArea.count >= 2, Int(publicArea[0]) << 8 | Int(publicArea[1]) == publicArea.count - 2 else { return nil }
        return Array(publicArea.dropFirst(2))
    }

    private static func bytes(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> [UInt8] {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(string))))
    }

    private static func free(_ sequence: OpaquePointer) {
        OPENSSL_sk_pop_free(sequence) { ASN1_TYPE_free($0?.assumingMemoryBound(to: ASN1_TYPE.self)) }
    }
}
