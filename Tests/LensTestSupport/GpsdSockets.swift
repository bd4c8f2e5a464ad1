import Foundation

/// Loopback TCP plumbing for the gpsd tests: listeners on ephemeral ports and reachability
/// probes. Everything is 127.0.0.1 only.
public enum GpsdSockets {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ call: String) { description = "\(call): \(String(cString: strerror(errno)))" }
    }

    /// A listening socket on 127.0.0.1:`port` (0 = ephemeral), close-on-exec so gpsd does not
    /// inherit it. The caller closes it.
    public static func listen(port: UInt16 = 0) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(fd, 8) == 0 else {
            let failure = Failure("bind/listen on 127.0.0.1:\(port)")
            close(fd)
            throw failure
        }
        return fd
    }

    public static func localPort(of fd: Int32) throws -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard status == 0 else { throw Failure("getsockname") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// A port nobody listens on right now, for gpsd's -S (it must bind the port itself).
    public static func freePort() throws -> UInt16 {
        let fd = try listen()
        defer { close(fd) }
        return try localPort(of: fd)
    }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    public static func isListening(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }
}
