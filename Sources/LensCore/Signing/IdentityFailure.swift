/// Why the device identity is not usable: the state to report and a sentence saying what to do.
struct IdentityFailure: Error {
    let state: EnrollmentState
    let problem: String

    init(_ state: EnrollmentState, _ problem: String) {
        self.state = state
        self.problem = problem
    }
}
