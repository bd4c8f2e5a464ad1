import FoundationEssentials

/// What `ResultStore` knows about the results on disk, per uid, oldest first. Plain data: the
/// store's lock guards it.
struct ResultIndex {
    /// Why retention deleted a result: the cap it went over.
    enum Cap {
        case count(Int)
        case bytes(Int64)

        /// For the log and the owner: "max-results-per-user (100)".
        var description: String {
            switch self {
            case .count(let limit): "over max-results-per-user (\(limit) results)"
            case .bytes(let limit): "over max-result-bytes-per-user (\(limit) bytes)"
            }
        }
    }

    struct Entry {
        let name: String
        let fileExtension: String
        let size: Int
        let mime: String
        /// nil for results found at startup until someone asks: hashing every stored video at
        /// boot would delay the daemon's readiness by seconds.
        var sha256: String?
        /// When it was stored (the file's modification time after a restart).
        var created: Date
        var note: ResultNote

        var fileName: String { "\(name).\(fileExtension)" }
    }

    private var entriesByUID: [UInt32: [Entry]] = [:]

    /// Oldest first.
    func entries(uid: UInt32) -> [Entry] {
        entriesByUID[uid] ?? []
    }

    func entry(name: String, uid: UInt32) -> Entry? {
        entriesByUID[uid]?.first { $0.name == name }
    }

    /// Adds the newest result of `uid`.
    mutating func append(_ entry: Entry, uid: UInt32) {
        entriesByUID[uid, default: []].append(entry)
    }

    mutating func remove(name: String, uid: UInt32) {
        entriesByUID[uid]?.removeAll { $0.name == name }
    }

    /// The result's file was replaced (an update manifest added): its new size and digest.
    mutating func replace(name: String, uid: UInt32, size: Int, sha256: String) {
        guard let position = entriesByUID[uid]?.firstIndex(where: { $0.name == name }), let old = entriesByUID[uid]?[position] else { return }
        entriesByUID[uid]?[position] = Entry(name: old.name, fileExtension: old.fileExtension, size: size, mime: old.mime,
                                             sha256: sha256, created: old.created, note: old.note)
    }

    mutating func setDigest(_ sha256: String, name: String, uid: UInt32) {
        guard let position = entriesByUID[uid]?.firstIndex(where: { $0.name == name }) else { return }
        entriesByUID[uid]?[position].sha256 = sha256
    }

    /// The oldest results of `uid` to delete so that at most `maxCount` results and `maxBytes`
    /// bytes remain, each with the cap it went over. `keeping` is never chosen: it is the result
    /// just stored, about to be announced to its owner.
    func evictions(uid: UInt32, maxCount: Int, maxBytes: Int64, keeping: String) -> [(entry: Entry, cap: Cap)] {
        let entries = entries(uid: uid)
        var count = entries.count
        var bytes = entries.reduce(Int64(0)) { $0 + Int64($1.size) }
        var chosen: [(entry: Entry, cap: Cap)] = []
        for entry in entries where entry.name != keeping {
            guard count > maxCount || bytes > maxBytes else { break }
            chosen.append((entry, count > maxCount ? .count(maxCount) : .bytes(maxBytes)))
            count -= 1
            bytes -= Int64(entry.size)
        }
        return chosen
    }
}
