import FoundationEssentials

/// A TSA's answer to a `TimeStampRequest`, believed only after the checks a signer makes before
/// storing its token: granted, over the requested imprint, echoing the nonce (not a replay),
/// signed by a certificate that may stamp time and chains to `anchors`, at a time the device
/// certificate was valid (otherwise the stamp would prove nothing a verifier accepts).
public enum TimeStampReply {
    public static func token(from response: [UInt8], answering request: TimeStampRequest, anchors: [Certificate],
                             signerValidity: ClosedRange<Date>) throws -> TimeStampToken {
        let token = try TimeStampToken(response: response)
        func refuse(_ reason: String) -> CryptoError { CryptoError(operation: "check time-stamp reply", reason: reason) }
        guard token.imprintAlgorithm == .sha256, token.imprint == request.imprint else {
            throw refuse("the token stamps other bytes than were sent (message imprint differs)")
        }
        guard token.nonce == request.nonce else { throw refuse("the token does not echo the request's nonce") }
        // The chain first: an expired or foreign TSA certificate is named as such, not as a failed signature.
        if let problem = token.trustProblem(anchors: anchors) { throw refuse(problem) }
        if let problem = token.signatureProblem() { throw refuse("the token's signature does not verify: \(problem)") }
        guard signerValidity.contains(token.genTime) else {
            throw refuse("the TSA's time \(token.genTime) is outside the device certificate's validity "
                + "(\(signerValidity.lowerBound) – \(signerValidity.upperBound))")
        }
        return token
    }
}
