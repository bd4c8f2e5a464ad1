import Glibc
import LensBus
import XCTest

final class FDPassingTests: BusTestCase {
    func testFDInAReplyCanBeReadByTheCaller() throws {
        let reply = try callService("OpenFile")
        let fd = try XCTUnwrap(reply.first?.fdValue)
        defer { close(fd) }
        let size = try XCTUnwrap(reply.last?.uint64Value)
        var buffer = [UInt8](repeating: 0, count: Int(size))
        // pread from 0: the file offset is shared with the service and any other receiver.
        XCTAssertEqual(pread(fd, &buffer, buffer.count, 0), Int(size))
        XCTAssertEqual(buffer, TestService.fileContents)
        XCTAssertNotEqual(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0)
    }

    func testFDSentInACallIsDuplicatedForTheHandler() throws {
        var pipeFDs: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&pipeFDs), 0)
        defer { close(pipeFDs[0]); close(pipeFDs[1]) }
        let reply = try callService("Mirror", [.variant(.fd(pipeFDs[1]))])
        let echoed = try XCTUnwrap(reply.first?.variantValue?.fdValue)
        defer { close(echoed) }
        XCTAssertNotEqual(echoed, pipeFDs[1])
        XCTAssertEqual(write(echoed, "x", 1), 1)
        var byte: UInt8 = 0
        XCTAssertEqual(read(pipeFDs[0], &byte, 1), 1)
        XCTAssertEqual(byte, UInt8(ascii: "x"))
    }
}
