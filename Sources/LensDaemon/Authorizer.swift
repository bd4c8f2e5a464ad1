import FoundationEssentials
import Glibc
import LensBus
import LensSystem

/// Who may use lensd: root, lensd's own user, and members of the allowed group. Decided on the
/// uid the bus reports for the caller — never on anything the caller sends — so the daemon stays
/// closed even if the bus policy file is missing. Group membership comes from the group database,
/// as it is now: an answer is kept for at most 30 s, and not at all once /etc/group or
/// /etc/passwd has been replaced or changed (gpasswd, usermod), so a removed member loses access
/// at their next call.
final class Authorizer {
    private let group: String
    private let ownUID = geteuid()
    private var cache: [UInt32: (allowed: Bool, until: ContinuousClock.Instant)] = [:]
    private var databaseVersion = GroupDatabaseVersion.current

    init(group: String) { self.group = group }

    func isAllowed(uid: UInt32) -> Bool {
        if uid == 0 || uid == ownUID { return true }
        let version = GroupDatabaseVersion.current
        if version != databaseVersion {
            databaseVersion = version
            cache.removeAll()
        }
        let now = ContinuousClock.now
        if let cached = cache[uid], cached.until > now { return cached.allowed }
        let allowed = Self.isMember(uid: uid, of: group)
        cache[uid] = (allowed, now + .seconds(30))
        return allowed
    }

    /// The caller's uid, once `access` lets it through: decided on the uid the bus reports for
    /// the sender — the policy file may be missing, this is not. Sessions check `owner` and
    /// `claimHolder` themselves, on top of membership.
    func caller(_ sender: String, access: Access, member: String, bus: any BusPort) throws -> UInt32 {
        let uid: UInt32
        do { uid = try bus.peerUID(sender) } catch {
            throw LensError.notAuthorized("the bus did not report who you are")
        }
        guard isAllowed(uid: uid) else {
            throw LensError.notAuthorized("\(Self.userName(uid)) may not use lensd: add the user to group \(group)")
        }
        if access == .root, uid != 0 { throw LensError.notAuthorized("\(member) is for root only, not \(Self.userName(uid))") }
        return uid
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

/// Identifies the current contents of the local user and group files: tools replace them by
/// rename (a new inode) or rewrite them (a new change time). Other NSS sources are covered by
/// the cache's lifetime alone.
private struct GroupDatabaseVersion: Equatable {
    var files: [[Int]]

    static var current: GroupDatabaseVersion {
        GroupDatabaseVersion(files: ["/etc/group", "/etc/passwd"].map { path in
            guard let info = try? FileSystem.status(path, followingLinks: true) else { return [] }
            return [Int(info.device), Int(info.inode), info.changed.tv_sec, info.changed.tv_nsec]
        })
    }
}
