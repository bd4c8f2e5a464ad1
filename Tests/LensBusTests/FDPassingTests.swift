import Foundation
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

    func testFDSentInACallIsLentToTheHandler() throws {
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

    /// A descriptor no handler takes is closed with its message, whether the call is answered or
    /// refused: a client stuffing fds into options cannot exhaust the service's descriptors.
    func testFDsInCallsAreClosedWhateverTheOutcome() throws {
        var pipeFDs: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&pipeFDs), 0)
        defer { close(pipeFDs[0]); close(pipeFDs[1]) }
        let options = BusValue.vardict(Dictionary(uniqueKeysWithValues: (0..<8).map { ("fd\($0)", BusValue.fd(pipeFDs[$0 % 2])) }))
        let nested = BusValue.vardict(["list": .array(elementSignature: "h", (0..<8).map { _ in .fd(pipeFDs[0]) })])
        let own = try descriptorCount(of: pipeFDs[0])  // the test's two ends
        _ = try? callService("Configure", [options])  // warm up
        for _ in 0..<60 {
            XCTAssertThrowsError(try callService("Configure", [options]))
            XCTAssertThrowsError(try callService("Configure", [nested]))
            let echoed = try XCTUnwrap(try callService("Mirror", [.variant(.fd(pipeFDs[1]))]).first?.variantValue?.fdValue)
            close(echoed)  // the reply's fd is the caller's own
        }
        // The service closes a message's descriptors as it frees the message, on its own thread
        // just after the reply: a leak never gets back to the test's own two.
        let deadline = ContinuousClock.now + .seconds(10)
        var count = try descriptorCount(of: pipeFDs[0])
        while count != own, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            count = try descriptorCount(of: pipeFDs[0])
        }
        XCTAssertEqual(count, own, "descriptors of the pipe left open after 180 calls")
    }

    /// The process's descriptors of the pipe `fd` belongs to (both ends: "pipe:[inode]"), so
    /// that descriptors other code in the test process opens or closes meanwhile do not count.
    private func descriptorCount(of fd: Int32) throws -> Int {
        let pipe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
        return try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == pipe
        }.count
    }
}

/// What a handler reads out of a sealed message, descriptors included, without a peer.
final class SealedMessageTests: XCTestCase {
    func testEveryShapeReadsBackWithItsDescriptorsLentAndClosedAfter() throws {
        var pipeFDs: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&pipeFDs), 0)
        defer { close(pipeFDs[0]); close(pipeFDs[1]) }
        let values: [BusValue] = [
            .vardict(["fd": .fd(pipeFDs[1]), "list": .array(elementSignature: "h", [.fd(pipeFDs[0]), .fd(pipeFDs[1])])]),
            .structure([.string("s"), .fd(pipeFDs[1]), .variant(.variant(.fd(pipeFDs[0])))]),
            .byteArray([1, 2, 3]), .double(1.5), .bool(true),
        ]
        let before = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        let lent = try SealedMessage.readBack(values) { read -> Int32 in
            XCTAssertEqual(read.map(\.signature), values.map(\.signature))
            let fd = try XCTUnwrap(read.first?.vardictValue?["fd"]?.fdValue)
            // Lent by the message: the same file (a write reaches the pipe), not one of ours.
            XCTAssertNotEqual(fd, pipeFDs[1])
            XCTAssertEqual(write(fd, "x", 1), 1)
            return fd
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count, before)
        XCTAssertEqual(fcntl(lent, F_GETFD), -1, "the message closed its descriptor")
        var byte: UInt8 = 0
        XCTAssertEqual(read(pipeFDs[0], &byte, 1), 1)
    }
}
