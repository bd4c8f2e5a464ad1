import CLinux
import Glibc
@testable import LensIdentity
import XCTest

@testable import LensCore

/// Named DeviceIdentity… so the identity filter runs it: non-dumpable protects the device key.
final class DeviceIdentityProcessHardeningTests: XCTestCase {
    /// Changes this test process for good; a non-dumpable test runner loses nothing but core dumps.
    func testDisableCoreDumpsMakesTheProcessNonDumpable() throws {
        try ProcessHardening.disableCoreDumps()
        XCTAssertEqual(lens_get_dumpable(), 0)
        var limit = rlimit()
        XCTAssertEqual(getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit), 0)
        XCTAssertEqual(limit.rlim_cur, 0)
        // A process may still read its own /proc entries, which the fd-leak tests rely on.
        XCTAssertGreaterThan(try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count, 0)
    }
}
