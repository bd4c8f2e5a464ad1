import FoundationEssentials
import LensCore
import LensIdentity

/// The identity's enrollment as capture sees it — the certificate's state at the clock's now,
/// revoked once OCSP said so — and its changes, each announced once.
struct EnrollmentWatch {
    private(set) var announced: EnrollmentState

    static func state(of identity: DeviceIdentity, revoked: Bool, at now: Date) -> EnrollmentState {
        let state = identity.state(at: now)
        return state == .enrolled && revoked ? .revoked : state
    }

    /// The state now, when it differs from the one last announced (which it then becomes).
    mutating func change(of identity: DeviceIdentity, revoked: Bool, at now: Date) -> EnrollmentState? {
        let state = Self.state(of: identity, revoked: revoked, at: now)
        guard state != announced else { return nil }
        announced = state
        return state
    }
}
