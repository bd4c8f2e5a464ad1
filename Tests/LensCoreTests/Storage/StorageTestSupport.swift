import Foundation
import Glibc
import XCTest

/// Scratch directories and file facts shared by the Signing and Storage tests.
enum StorageTestSupport {
    /// A new empty directory under the system temp dir; the caller removes it.
    static func makeScratchDirectory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lensd-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        return url
    }

    /// lstat of `path`, failing the test when it does not exist.
    static func status(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> stat {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            XCTFail("lstat \(path): \(String(cString: strerror(errno)))", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        return status
    }

    /// The permission bits of `path`.
    static func mode(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> mode_t {
        try status(path, file: file, line: line).st_mode & 0o7777
    }

    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// How many descriptors this process has open right now.
    static func openDescriptorCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }

    /// Every file below `directory` (relative path → contents), to show that nothing was written.
    static func snapshot(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let base = directory.path
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return files }
        for case let relative as String in enumerator {
            let path = "\(base)/\(relative)"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            } else {
                files[relative + "/"] = Data()
            }
        }
        return files
    }
}
