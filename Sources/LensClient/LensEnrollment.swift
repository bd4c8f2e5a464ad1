import FoundationEssentials

/// The certificate InstallCertificate installed.
public struct LensEnrollment: Sendable, Equatable {
    /// "enrolled" once the certificate is in use.
    public var enrollmentState: String
    public var subject: String
    public var issuer: String
    public var notAfter: Date
    /// SHA-256 of the certificate's DER, lowercase hex.
    public var fingerprint: String

    init(_ fields: Fields) throws(LensClientError) {
        enrollmentState = try fields.string("enrollmentState")
        subject = try fields.string("subject")
        issuer = try fields.string("issuer")
        notAfter = Date(timeIntervalSince1970: Double(try fields.uint64("notAfter")))
        fingerprint = try fields.string("fingerprint")
    }
}
