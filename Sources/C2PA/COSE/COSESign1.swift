import LensCrypto

/// COSE_Sign1 (RFC 9052) as C2PA uses it: tag 18, the certificate chain under label 33 (x5chain)
/// in the protected header, a detached payload (the claim), and a raw r‖s signature.
public struct COSESign1: Sendable {
    static let tag: UInt64 = 18
    static let algorithmLabel = CBOR.unsigned(1)
    static let x5chainLabel = CBOR.unsigned(33)

    /// The protected header exactly as serialized in the file; the signature covers these bytes.
    public let protectedBytes: [UInt8]
    public let protectedHeader: CBOR
    public let unprotectedHeader: CBOR
    /// The payload when it is carried inside (a CAWG credential); nil when detached (a claim).
    public let payload: [UInt8]?
    public let signature: [UInt8]

    /// Signs `payload` (the claim bytes) and returns the encoded, tagged COSE_Sign1; with a
    /// `timeStamper`, its token over the signature goes into the unprotected header (`sigTst2`).
    public static func sign(payload: [UInt8], signer: ClaimSigner, timeStamper: (any TimeStamper)? = nil) throws -> [UInt8] {
        let protected = protectedHeader(chain: signer.certificateChain, algorithm: signer.algorithm)
        let signature = try signer.sign(toBeSigned(protectedBytes: protected, payload: payload))
        guard signature.count == signer.algorithm.signatureSize else {
            throw C2PAError.signing("signer returned \(signature.count) bytes, expected \(signer.algorithm.signatureSize)")
        }
        let revocation = revocationValues(signer.ocspResponses)
        let unprotected: CBOR
        if let timeStamper {
            let token = try timeStamper.timeStamp(countersigned(protectedBytes: protected, stamped: CBOR.bytes(signature).encoded()))
            unprotected = try TimeStampHeader.unprotected(token: token, reserve: timeStamper.tokenReserve, besides: revocation)
        } else {
            unprotected = .map(revocation)
        }
        return encode(protectedBytes: protected, unprotected: unprotected, signature: signature)
    }

    /// The same structure with a zero signature (and the time-stamp's reserve): its size is the signed size.
    static func encodeUnsigned(signer: ClaimSigner, tokenReserve: Int?) throws -> [UInt8] {
        let revocation = revocationValues(signer.ocspResponses)
        let unprotected = try tokenReserve.map { try TimeStampHeader.unprotected(token: nil, reserve: $0, besides: revocation) }
            ?? .map(revocation)
        return encode(protectedBytes: protectedHeader(chain: signer.certificateChain, algorithm: signer.algorithm),
                      unprotected: unprotected, signature: [UInt8](repeating: 0, count: signer.algorithm.signatureSize))
    }

    /// `rVals` = {"ocspVals": [response…]}, as c2pa-rs staples OCSP responses; nothing without any.
    static let revocationLabel = "rVals", ocspLabel = "ocspVals"
    private static func revocationValues(_ responses: [[UInt8]]) -> [CBOR.Pair] {
        guard !responses.isEmpty else { return [] }
        return [CBOR.Pair(.text(revocationLabel), .map([CBOR.Pair(.text(ocspLabel), .array(responses.map(CBOR.bytes)))]))]
    }

    private static func protectedHeader(chain: [Certificate], algorithm: SigningAlgorithm) -> [UInt8] {
        let certificates = chain.map { CBOR.bytes($0.der) }
        return CBOR.map([
            CBOR.Pair(algorithmLabel, .int(algorithm.coseIdentifier)),
            CBOR.Pair(x5chainLabel, certificates.count == 1 ? certificates[0] : .array(certificates)),
        ]).encoded()
    }

    private static func encode(protectedBytes: [UInt8], unprotected: CBOR, signature: [UInt8]) -> [UInt8] {
        CBOR.tagged(tag, .array([.bytes(protectedBytes), unprotected, .null, .bytes(signature)])).encoded()
    }

    /// What an RFC 3161 time-stamp's imprint covers: a COSE countersignature structure over the
    /// protected header and `stamped` — for sigTst2 the signature's CBOR bstr encoding, for
    /// v1 sigTst the payload.
    public static func countersigned(protectedBytes: [UInt8], stamped: [UInt8]) -> [UInt8] {
        CBOR.array([.text("CounterSignature"), .bytes(protectedBytes), .bytes([]), .bytes(stamped)]).encoded()
    }

    /// The Sig_structure: ["Signature1", protected, external_aad = h'', payload].
    public static func toBeSigned(protectedBytes: [UInt8], payload: [UInt8]) -> [UInt8] {
        CBOR.array([.text("Signature1"), .bytes(protectedBytes), .bytes([]), .bytes(payload)]).encoded()
    }

    public init(encoded: [UInt8]) throws {
        var item = try CBORDecoder.decode(encoded)
        if case .tagged(let tag, let inner) = item {
            guard tag == Self.tag else { throw C2PAError.malformed("COSE: tag \(tag) is not COSE_Sign1") }
            item = inner
        }
        guard let parts = item.arrayValue, parts.count == 4,
              let protectedBytes = parts[0].bytesValue, let signature = parts[3].bytesValue
        else { throw C2PAError.malformed("COSE_Sign1 is not [protected, unprotected, payload, signature]") }
        self.protectedBytes = protectedBytes
        self.protectedHeader = protectedBytes.isEmpty ? .map([]) : try CBORDecoder.decode(protectedBytes)
        self.unprotectedHeader = parts[1]
        self.payload = parts[2].bytesValue
        self.signature = signature
    }

    /// nil when the header names no algorithm or one C2PA does not list.
    public var algorithm: COSEAlgorithm? {
        protectedHeader[Self.algorithmLabel]?.intValue.flatMap(COSEAlgorithm.init(coseIdentifier:))
    }

    /// DER certificates, leaf first. Label 33 in the protected header; the deprecated text label
    /// "x5chain" and the unprotected header are read for older manifests.
    public var certificateChainDER: [[UInt8]] {
        let candidates = [protectedHeader[Self.x5chainLabel], protectedHeader["x5chain"],
                          unprotectedHeader[Self.x5chainLabel], unprotectedHeader["x5chain"]]
        guard let value = candidates.compactMap({ $0 }).first else { return [] }
        if let single = value.bytesValue { return [single] }
        return value.arrayValue?.compactMap(\.bytesValue) ?? []
    }
}
