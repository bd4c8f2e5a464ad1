import LensSystem
import LensTestSupport
import XCTest

/// A test that injects faults: each starts and ends with none armed, and its faults are scoped
/// to its own temporary directory, so none can reach another test or other code in the process.
class FaultInjectionTestCase: XCTestCase {
    private(set) var tmp: TemporaryDirectory!

    override func setUpWithError() throws {
        try super.setUpWithError()
        SystemCalls.FaultInjection.reset()
        tmp = try TemporaryDirectory(prefix: "lens-system")
    }

    override func tearDown() {
        SystemCalls.FaultInjection.reset()
        tmp = nil
        super.tearDown()
    }

    /// The next `times` calls of `operation` on files in this test's directory fail with `errno`.
    func inject(_ errno: Errno, into operation: SystemCalls.Operation, times: Int = 1, skipping: Int = 0) {
        SystemCalls.FaultInjection.inject(errno, into: operation, times: times, skipping: skipping, under: tmp.url.path + "/")
    }

    /// The names in this test's directory: what a failed write left behind.
    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: tmp.url.path).sorted()
    }

    func assertErrno(_ expected: Errno, _ expression: @autoclosure () throws -> some Any,
                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            XCTAssertEqual((error as? SystemError)?.errno, expected, "\(error)", file: file, line: line)
        }
    }
}
