import FoundationEssentials
import LensBus

/// One of this user's results as lensd keeps it (ListResults): fetch it with
/// `LensCamera.fetchResult`, delete it with `LensCamera.deleteResult`.
public struct LensStoredResult: Sendable, Equatable {
    /// The name BeginCapture or the recording gave it (a lower-case UUID).
    public var name: String
    /// "image/jpeg" or "video/mp4".
    public var mime: String
    public var size: UInt64
    /// When lensd stored it.
    public var created: Date
    /// False for a video lensd kept unsigned.
    public var signed: Bool
    /// A recording a crash interrupted, finalized when lensd started again.
    public var recovered: Bool
    /// Lower-case hex; nil until lensd has computed it (it never hashes a video just to list it).
    public var sha256: String?

    init(_ fields: Fields) throws(LensClientError) {
        name = try fields.string("name")
        mime = try fields.string("mime")
        size = try fields.uint64("size")
        created = Date(timeIntervalSince1970: Double(try fields.uint64("created")))
        signed = try fields.bool("signed")
        recovered = try fields.bool("recovered")
        sha256 = fields.optionalString("sha256")
    }

    public var isVideo: Bool { mime.hasPrefix("video/") }
}

/// The per-user caps on stored results (the Manager's ResultLimits).
public struct LensResultLimits: Sendable, Equatable {
    public var maxCount: UInt32
    public var maxBytes: UInt64

    init(_ fields: Fields) throws(LensClientError) {
        maxCount = try fields.uint32("maxCount")
        maxBytes = try fields.uint64("maxBytes")
    }
}

extension LensCamera {
    /// This user's stored results, newest first; never another user's.
    public func results() throws(LensClientError) -> [LensStoredResult] {
        let reply = try managerCall("ListResults")
        guard reply.count == 1, let entries = reply[0].arrayValue else { throw .internal("ListResults answered \(reply)") }
        var results: [LensStoredResult] = []
        for entry in entries { results.append(try LensStoredResult(try Fields(entry, "a listed result"))) }
        return results
    }

    /// Deletes one of this user's results; `.notFound` when there is none of that name.
    public func deleteResult(_ name: String) throws(LensClientError) {
        _ = try managerCall("DeleteResult", [.string(name)])
    }
}
