#if canImport(Glibc)
import Glibc
#endif

/// A file's bytes mapped read-only: hashing reads the page cache directly, so signing a file
/// copies its bytes once (into the output) instead of twice. The file must not shrink while
/// it is mapped (its owner, lensd or lens-bench, holds the only copy being signed).
struct MappedFile: ~Copyable {
    private let base: UnsafeMutableRawPointer?
    let count: Int

    init(_ file: borrowing POSIXFile) throws {
        let size = try file.size
        var address: UnsafeMutableRawPointer?
        if size > 0 {
            address = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, file.fd, 0)
            guard let mapped = address, mapped != MAP_FAILED else { throw POSIXFile.error("mmap", file.path) }
        }
        base = address
        count = size
    }

    deinit { if let base { munmap(base, count) } }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
}
