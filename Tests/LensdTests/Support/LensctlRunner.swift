import Foundation
import LensTestSupport
import XCTest

/// The built lensctl, copied where setpriv'd users can run it, run against the test's bus.
struct LensctlRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    let address: String

    static var binary: String { get throws { try DaemonUnderTest.installedBinary("lensctl") } }

    /// `lensctl ARGS --bus ADDRESS` as `user` (nil: root, the test's own user). `verify` runs
    /// offline unless the arguments name a bus: with one, it also trusts that lensd's anchor.
    func run(_ arguments: [String], as user: String? = nil, bus: String? = nil) throws -> Result {
        let offline = arguments.first == "verify" && bus == nil
        let argv = [try Self.binary] + arguments + (offline ? [] : ["--bus", bus ?? address])
        let r = try runProcess(user.map { TestUsers.asUser($0, argv) } ?? argv)
        return Result(status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self),
                      stderr: String(decoding: r.stderr, as: UTF8.self))
    }

    /// Runs and asserts the exit code; returns the result for further checks.
    @discardableResult
    func expect(_ status: Int32, _ arguments: [String], as user: String? = nil, bus: String? = nil,
                file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        let result = try run(arguments, as: user, bus: bus)
        XCTAssertEqual(result.status, status, "lensctl \(arguments.joined(separator: " ")): \(result.stderr)",
                       file: file, line: line)
        return result
    }
}

extension LensdTestCase {
    var lensctl: LensctlRunner { LensctlRunner(address: bus.address) }
}
