/// Obtains an RFC 3161 time-stamp token for a claim signature once it is made (C2PA v2 `sigTst2`).
/// The claim and COSE code see only this: where the token comes from (a TSA over HTTP, a test)
/// and what happens when there is none is the implementation's business.
public protocol TimeStamper: Sendable {
    /// Bytes the unprotected header sets aside for the token, so that a store's size is known
    /// before it is signed; a larger token fails the signing.
    var tokenReserve: Int { get }
    /// A DER TimeStampToken whose imprint is the SHA-256 of `data` — COSESign1.countersigned for a
    /// signature's sigTst2, a parent's claim signature for `c2pa.time-stamp`; nil to go on
    /// without one; a throw fails the signing.
    func timeStamp(_ data: [UInt8]) throws -> [UInt8]?
}
