#if canImport(Glibc)
import Glibc
#endif

extension POSIXFile {
    /// Runs `body` over the whole file mapped read-only (pages populated up front), for a regular
    /// file that is not empty; nil for anything else (a pipe), which the caller then reads. The
    /// mapping is undone when `body` returns. Whoever can shrink the file meanwhile can make a read
    /// of the lost pages fault (SIGBUS): map only what the caller's process may lose that way.
    func mapped<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result? {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw Self.error("stat", path) }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return nil }
        let size = Int(status.st_size)
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0), address != MAP_FAILED else {
            return nil
        }
        defer { munmap(address, size) }
        return try body(UnsafeRawBufferPointer(start: address, count: size))
    }
}
