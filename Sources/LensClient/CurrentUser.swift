import FoundationEssentials
import Glibc

/// The user this client runs as, for hints that name them.
enum CurrentUser {
    static var name: String {
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return "uid \(getuid())" }
        return String(cString: name)
    }
}
