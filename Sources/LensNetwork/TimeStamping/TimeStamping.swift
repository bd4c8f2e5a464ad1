import C2PA
import FoundationEssentials
import Synchronization

/// How captures are time-stamped: the TSAs to ask and what a capture does when none answers.
public struct TimeStamping: Sendable {
    public var client: TSAClient
    public var policy: TimeStampPolicy

    public init(client: TSAClient, policy: TimeStampPolicy) {
        self.client = client
        self.policy = policy
    }

    /// What one signing got: a trusted time, or why it has none.
    public enum Outcome: Sendable, Equatable {
        case stamped(Date)
        case unstamped(reason: String)
    }

    /// A `required` capture whose TSA did not answer: it must not be stored.
    public struct Unavailable: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { "no trusted time-stamp could be had: \(reason)" }
    }

    /// Room for the token in every signature: a TSA's chain of two or three certificates fits.
    public static let tokenReserve = 10 << 10

    /// The time-stamper for one signing by `signer`, which remembers how it went.
    public func stamper(for signer: ClaimSigner) -> SigningTimeStamper? {
        guard policy != .never, let leaf = signer.certificateChain.first else { return nil }
        return SigningTimeStamper(client: client, required: policy == .required, signerValidity: leaf.notBefore...leaf.notAfter)
    }
}

/// One signing's TimeStamper: asks the TSAs, and keeps the first outcome for the result's info.
public final class SigningTimeStamper: TimeStamper {
    public let tokenReserve = TimeStamping.tokenReserve
    private let client: TSAClient
    private let required: Bool
    private let signerValidity: ClosedRange<Date>
    private let result = Mutex<TimeStamping.Outcome?>(nil)

    public init(client: TSAClient, required: Bool, signerValidity: ClosedRange<Date>) {
        self.client = client
        self.required = required
        self.signerValidity = signerValidity
    }

    public var outcome: TimeStamping.Outcome? { result.withLock { $0 } }

    public func timeStamp(_ countersigned: [UInt8]) throws -> [UInt8]? {
        do {
            let token = try client.timeStamp(countersigned, signerValidity: signerValidity)
            let der = try token.der
            result.withLock { $0 = $0 ?? .stamped(token.genTime) }
            return der
        } catch {
            result.withLock { $0 = $0 ?? .unstamped(reason: "\(error)") }
            if required { throw TimeStamping.Unavailable(reason: "\(error)") }
            return nil
        }
    }
}
