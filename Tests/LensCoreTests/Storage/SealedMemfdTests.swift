import CLinux
import Foundation
import Glibc
@testable import LensStorage
import XCTest

@testable import LensCore

final class SealedMemfdTests: XCTestCase {
    private var scratch: URL!
    private var resultStore: ResultStore!

    override func setUpWithError() throws {
        scratch = try StorageTestSupport.makeScratchDirectory("memfd")
        resultStore = try ResultStore(directory: scratch.appendingPathComponent("results"), minimumFreeBytes: 0)
    }

    override func tearDownWithError() throws {
        resultStore = nil
        try FileManager.default.removeItem(at: scratch)
    }

    private func store(_ bytes: [UInt8]) throws -> StoredResult {
        try resultStore.store(parts: [bytes], name: UUID().uuidString.lowercased(), uid: 1000, mime: "image/jpeg", fileExtension: "jpg")
    }

    /// The bytes of `fd` from offset 0, without moving its offset.
    private func contents(_ fd: Int32) throws -> [UInt8] {
        var status = stat()
        XCTAssertEqual(fstat(fd, &status), 0)
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        XCTAssertEqual(count, bytes.count)
        return bytes
    }

    func testMemfdHoldsTheExactBytesSealedAndRewound() throws {
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let stored = try store(bytes)
        let fd = try resultStore.sealedMemfd(name: stored.name, uid: 1000).take()
        defer { close(fd) }

        XCTAssertEqual(try contents(fd), bytes)
        XCTAssertEqual(lseek(fd, 0, SEEK_CUR), 0)
        XCTAssertEqual(lens_get_seals(fd), LENS_SEAL_SEAL | LENS_SEAL_SHRINK | LENS_SEAL_GROW | LENS_SEAL_WRITE)
        XCTAssertNotEqual(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0)
        XCTAssertTrue(linkTarget(fd).contains("memfd:lensd-\(stored.name)"))

        var byte: UInt8 = 0
        XCTAssertEqual(write(fd, &byte, 1), -1)
        XCTAssertEqual(errno, EPERM)
        XCTAssertEqual(pwrite(fd, &byte, 1, 0), -1)
        XCTAssertEqual(ftruncate(fd, 1), -1)
        XCTAssertEqual(errno, EPERM)
        XCTAssertEqual(ftruncate(fd, off_t(bytes.count + 1)), -1)
        XCTAssertEqual(lens_add_seals(fd, 0), -1, "F_SEAL_SEAL forbids changing the seals")
        let mapping = mmap(nil, bytes.count, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        XCTAssertEqual(Int(bitPattern: mapping), -1, "no writable shared mapping")
        if Int(bitPattern: mapping) != -1 { munmap(mapping, bytes.count) }
        XCTAssertEqual(try contents(fd), bytes)
    }

    func testEmptyResult() throws {
        let fd = try resultStore.sealedMemfd(name: try store([]).name, uid: 1000).take()
        defer { close(fd) }
        XCTAssertEqual(try contents(fd), [])
        XCTAssertEqual(lens_get_seals(fd) & LENS_SEAL_GROW, LENS_SEAL_GROW)
    }

    func testMemfdOutlivesTheFile() throws {
        let stored = try store([5, 6, 7])
        let fd = try resultStore.sealedMemfd(name: stored.name, uid: 1000).take()
        defer { close(fd) }
        try FileManager.default.removeItem(atPath: stored.path)
        XCTAssertEqual(try contents(fd), [5, 6, 7])
    }

    func testRepeatedStoresAndFetchesLeakNoDescriptors() throws {
        // Warm up first: the first calls may open descriptors that stay open for good (e.g. for locale data).
        close(try resultStore.sealedMemfd(name: try store([0]).name, uid: 1000).take())
        let before = try StorageTestSupport.openDescriptorCount()
        for round in 0..<200 {
            let stored = try store([UInt8(truncatingIfNeeded: round), 1, 2])
            let fd = try resultStore.sealedMemfd(name: stored.name, uid: 1000).take()
            XCTAssertEqual(try contents(fd).first, UInt8(truncatingIfNeeded: round))
            XCTAssertEqual(close(fd), 0)
            _ = try resultStore.read(name: stored.name, uid: 1000)
            _ = try resultStore.result(name: stored.name, uid: 1000)
            XCTAssertThrowsError(try resultStore.read(name: stored.name, uid: 1))
        }
        _ = resultStore.isLowOnSpace
        _ = resultStore.results(uid: 1000)
        XCTAssertEqual(try StorageTestSupport.openDescriptorCount(), before)
    }

    /// What /proc shows for `fd`, e.g. "/memfd:lensd-<name> (deleted)".
    private func linkTarget(_ fd: Int32) -> String {
        var target = [CChar](repeating: 0, count: 512)
        let count = readlink("/proc/self/fd/\(fd)", &target, target.count)
        return String(decoding: target.prefix(max(count, 0)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
