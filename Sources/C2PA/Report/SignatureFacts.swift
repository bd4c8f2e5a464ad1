import FoundationEssentials
import LensSystem
import LensCrypto

/// What a manifest's claim signature says of itself, read again for reports: the algorithm, the
/// signer's certificate, and a time-stamp's time and authority when a token is there.
struct SignatureFacts {
    var algorithm: COSEAlgorithm?
    var leaf: Certificate?
    var chain: [Certificate] = []
    var timeStamp: (time: Date, authority: Certificate?)?

    init(_ manifest: Manifest) {
        guard let bytes = manifest.signatureBox?.content("cbor"), let cose = try? COSESign1(encoded: bytes) else { return }
        algorithm = cose.algorithm
        chain = cose.certificateChainDER.compactMap { try? Certificate(der: $0) }
        leaf = chain.first
        let header = cose.unprotectedHeader["sigTst2"] ?? cose.unprotectedHeader["sigTst"]
        if let der = header?["tstTokens"]?.arrayValue?.first?["val"]?.bytesValue, let token = try? TimeStampToken(der: der) {
            timeStamp = (token.genTime, token.certificates.first)
        }
    }

    /// crJSON's certificateInfo.
    static func certificateInfo(_ certificate: Certificate) -> JSONValue {
        func name(_ attributes: [NameAttribute]) -> JSONValue {
            .object(Dictionary(attributes.map { ($0.key, JSONValue.string($0.value)) }, uniquingKeysWith: { first, _ in first }))
        }
        return .object([
            "serialNumber": .string(certificate.serialNumber.map { String(cFormat: "%02x", $0) }.joined().drop { $0 == "0" }.description),
            "issuer": name(certificate.issuerAttributes),
            "subject": name(certificate.subjectAttributes),
            "validity": .object(["notBefore": .string(ReportJSON.time(certificate.notBefore)),
                                 "notAfter": .string(ReportJSON.time(certificate.notAfter))]),
        ])
    }

    /// The serial number in decimal, as c2pa-rs's signature_info gives it.
    static func decimal(_ bytes: [UInt8]) -> String {
        var digits: [UInt8] = []  // little-endian base 10
        for byte in bytes {
            var carry = Int(byte)
            for index in digits.indices {
                let value = Int(digits[index]) * 256 + carry
                digits[index] = UInt8(value % 10)
                carry = value / 10
            }
            while carry > 0 { digits.append(UInt8(carry % 10)); carry /= 10 }
        }
        return digits.isEmpty ? "0" : String(digits.reversed().map { Character(String($0)) })
    }
}

public extension VerificationReport {
    /// The active manifest's signing certificate chain, leaf first, as its signature carries it.
    var signerChain: [Certificate]? {
        store?.activeManifest.map { SignatureFacts($0).chain }
    }
}
