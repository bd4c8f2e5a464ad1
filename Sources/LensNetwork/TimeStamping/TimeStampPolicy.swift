/// When signing asks a TSA for an RFC 3161 time-stamp (`timestamp` key; wire values frozen).
public enum TimeStampPolicy: String, Sendable, CaseIterable {
    /// No capture without a token: capture is disabled while no TSA answers.
    case required
    /// A token when a TSA answers; otherwise the capture is signed without one.
    case whenOnline = "when-online"
    /// Never ask.
    case never
}
