#if canImport(Glibc)
import Glibc
#endif

/// Why a TCP connection to a host cannot be made, when a client library (libgps) only says it
/// could not connect: one non-blocking connect per address of the host, without waiting for a
/// handshake. What fails within connect itself is what it reports: a firewall's or the unit's
/// IPAddressDeny= (EPERM), a security module's (EACCES), no route; nobody listening shows only
/// later, even on loopback (EINPROGRESS), so it is not reported.
public enum ConnectProbe {
    /// The errno of an address whose connect fails at once, a refusal of permission first; nil
    /// when the name does not resolve, or every connect is accepted or still under way.
    public static func failure(host: String, port: String) -> Errno? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, port, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(first) }
        var failures: [Errno] = []
        for entry in sequence(first: first, next: { $0.pointee.ai_next }) {
            if let failure = connectFailure(entry.pointee) { failures.append(failure) }
        }
        return failures.first(where: isPermissionDenied) ?? failures.first
    }

    private static func connectFailure(_ info: addrinfo) -> Errno? {
        guard let address = info.ai_addr else { return nil }
        do {
            let fd = try SystemCalls.socket(info.ai_family, info.ai_socktype | Int32(SOCK_NONBLOCK.rawValue), info.ai_protocol)
            defer { try? SystemCalls.close(fd) }
            try SystemCalls.connect(fd, address, info.ai_addrlen)
            return nil
        } catch {
            return error.errno.rawValue == EINPROGRESS ? nil : error.errno
        }
    }

    /// The failure is a refusal of permission (EPERM, EACCES), not an absence.
    public static func isPermissionDenied(_ errno: Errno?) -> Bool {
        errno == .notPermitted || errno == .permissionDenied
    }
}
