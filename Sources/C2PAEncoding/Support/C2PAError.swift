import LensSystem

/// Errors of the C2PA engine. Verification problems are not errors: they are status codes in a report.
public enum C2PAError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The asset carries no C2PA manifest store.
    case noManifest
    /// The bytes do not parse as the structure they claim to be.
    case malformed(String)
    /// The asset cannot be signed as given (e.g. it already carries a manifest store, or is not a JPEG).
    case unsupported(String)
    /// The signer failed or produced something unusable.
    case signing(String)
    /// The signed manifest needs `needed` bytes where only `available` were reserved; nothing was written.
    case doesNotFit(needed: Int, available: Int)
    /// A system call on a file failed: `what` names the call and the file, `errno` why
    /// (`.noSpace` for a full disk, `.io` for a failing device).
    case io(String, Errno)

    public var description: String {
        switch self {
        case .noManifest: return "no C2PA manifest"
        case .malformed(let why): return "malformed: \(why)"
        case .unsupported(let why): return "unsupported: \(why)"
        case .signing(let why): return "signing failed: \(why)"
        case .doesNotFit(let needed, let available):
            return "the manifest needs \(needed) bytes, \(available) were reserved"
        case .io(let what, let errno): return "\(what): \(errno)"
        }
    }
}
