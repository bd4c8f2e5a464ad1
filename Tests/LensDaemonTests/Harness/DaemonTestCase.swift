import XCTest

/// A test case with lensd in process, made anew for each test by `makeDaemon` (with `arguments`
/// on its command line unless a subclass makes it otherwise) and shut down after it, every ticket
/// ended.
class DaemonTestCase: XCTestCase {
    var lensd: DaemonHarness!

    var arguments: [String] { [] }

    func makeDaemon() throws -> DaemonHarness { try DaemonHarness(arguments) }

    override func setUpWithError() throws {
        lensd = try makeDaemon()
    }

    override func tearDownWithError() throws {
        try lensd?.shutDown()
        lensd = nil
    }
}
