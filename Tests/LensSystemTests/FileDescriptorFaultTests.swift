import Glibc
import LensSystem
import LensTestSupport
import XCTest

/// The seam itself: EINTR is retried where the calls are made, other errnos surface typed.
final class FileDescriptorFaultTests: FaultInjectionTestCase {
    private let bytes = Array((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    private func create(_ name: String) throws -> FileDescriptor {
        try FileDescriptor.open(tmp.file(name).path, O_RDWR | O_CREAT | O_EXCL, mode: 0o600)
    }

    func testInterruptedWritesAreRetried() throws {
        let file = try create("interrupted")
        inject(.interrupted, into: .write, times: 3)
        try file.writeAll(bytes)
        try file.writeAll(bytes, at: bytes.count)
        XCTAssertEqual(SystemCalls.FaultInjection.delivered, 3, "every EINTR reached the retry loop")
        XCTAssertEqual(SystemCalls.FaultInjection.pending, 0)
        XCTAssertEqual(Array(try Data(contentsOf: tmp.file("interrupted"))), bytes + bytes)
    }

    func testInterruptedReadsAreRetried() throws {
        let file = try create("read")
        try file.writeAll(bytes)
        inject(.interrupted, into: .read, times: 2)
        var back = [UInt8](repeating: 0, count: bytes.count)
        let count = try back.withUnsafeMutableBytes { try file.read(into: $0, at: 0) }
        XCTAssertEqual(count, bytes.count)
        XCTAssertEqual(back, bytes)
        inject(.interrupted, into: .read)
        try file.seek(to: 0)
        XCTAssertEqual(try file.readAll(), bytes)
        XCTAssertEqual(SystemCalls.FaultInjection.delivered, 3)
    }

    func testNoSpaceAtWriteSurfacesAsErrno() throws {
        let file = try create("full")
        inject(.noSpace, into: .write)
        assertErrno(.noSpace, try file.writeAll(bytes))
        XCTAssertEqual(try file.size(), 0, "the failed write wrote nothing")
        // One fault, one failure: the next write goes through.
        try file.writeAll(bytes)
        XCTAssertEqual(try file.size(), bytes.count)
    }

    func testFaultsAfterSuccessfulCallsHitTheLaterWrite() throws {
        let file = try create("later")
        inject(.noSpace, into: .write, skipping: 2)
        try file.writeAll(bytes[..<10])
        try file.writeAll(bytes[10..<20])
        assertErrno(.noSpace, try file.writeAll(bytes[20...]))
        XCTAssertEqual(try file.size(), 20)
    }

    func testIOErrorAtWriteAndAtSyncSurfaceAsErrno() throws {
        let file = try create("failing")
        inject(.io, into: .write)
        assertErrno(.io, try file.writeAll(bytes, at: 0))
        try file.writeAll(bytes)
        inject(.io, into: .sync)
        assertErrno(.io, try file.sync())
        inject(.noSpace, into: .sync)
        assertErrno(.noSpace, try file.syncData())
        try file.sync()
    }

    func testFaultsStayInTheirDirectory() throws {
        let elsewhere = try TemporaryDirectory(prefix: "lens-system-elsewhere")
        let outside = try FileDescriptor.open(elsewhere.file("outside").path, O_RDWR | O_CREAT, mode: 0o600)
        inject(.noSpace, into: .write)
        try outside.writeAll(bytes)
        XCTAssertEqual(SystemCalls.FaultInjection.pending, 1, "a file elsewhere does not meet the fault")
        assertErrno(.noSpace, try create("inside").writeAll(bytes))
    }

    func testResetDisarms() throws {
        inject(.noSpace, into: .write, times: 5)
        SystemCalls.FaultInjection.reset()
        XCTAssertEqual(SystemCalls.FaultInjection.pending, 0)
        try create("after-reset").writeAll(bytes)
        XCTAssertEqual(SystemCalls.FaultInjection.delivered, 0)
    }

    func testErrnoReadsAsStrerror() {
        XCTAssertEqual(Errno.noSpace.description, "No space left on device")
        XCTAssertEqual(Errno.noSpace, Errno(rawValue: ENOSPC))
        XCTAssertNotEqual(Errno.noSpace, .io)
    }

    func testCloseReportsItsError() throws {
        try create("closed").close()
        assertErrno(.badDescriptor, try FileDescriptor(adopting: -1).close())
    }

    func testTakeHandsOverWithoutClosing() throws {
        let raw = try create("taken").take()
        defer { Glibc.close(raw) }
        XCTAssertEqual(fcntl(raw, F_GETFD), FD_CLOEXEC, "still open, and opened close-on-exec")
    }
}
