/// Why the device identity is not usable: the state to report and a sentence saying what to do.
public struct IdentityFailure: Error, CustomStringConvertible {
    public let state: EnrollmentState
    public let problem: String
    public var description: String { problem }

    init(_ state: EnrollmentState, _ problem: String) {
        self.state = state
        self.problem = problem
    }
}
