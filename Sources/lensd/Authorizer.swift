import Foundation

/// Who may use lensd: root, lensd's own user, and members of the allowed group. Decided on the
/// uid the bus reports for the caller — never on anything the caller sends — so the daemon stays
/// closed even if the bus policy file is missing. Group membership comes from the group database.
final class Authorizer {
    private let group: String
    private let ownUID = geteuid()
    private var cache: [UInt32: (allowed: Bool, until: ContinuousClock.Instant)] = [:]

    init(group: String) { self.group = group }

    func isAllowed(uid: UInt32) -> Bool {
        if uid == 0 || uid == ownUID { return true }
        let now = ContinuousClock.now
        if let cached = cache[uid], cached.until > now { return cached.allowed }
        let allowed = Self.isMember(uid: uid, of: group)
        cache[uid] = (allowed, now + .seconds(30))
        return allowed
    }

    static func isMember(uid: UInt32, of group: String) -> Bool {
        guard let entry = getgrnam(group) else { return false }
        let gid = entry.pointee.gr_gid
        guard let user = getpwuid(uid) else { return false }
        if user.pointee.pw_gid == gid { return true }
        let name = user.pointee.pw_name!
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, user.pointee.pw_gid, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, user.pointee.pw_gid, &groups, &count) >= 0 else { return false }
        }
        return groups.prefix(Int(count)).contains(gid)
    }

    static func userName(_ uid: UInt32) -> String {
        getpwuid(uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(uid)"
    }
}
