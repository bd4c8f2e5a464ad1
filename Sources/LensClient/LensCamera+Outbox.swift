import LensBus
import LensContract

/// The outbox: lensd's uploads of signed results to the server in its upload-url.
extension LensCamera {
    public func outboxState() throws(LensClientError) -> LensOutboxState {
        try LensOutboxState(try allProperties(path: Lens1.managerPath, interface: Lens1.managerInterface).nested("OutboxState"))
    }

    /// The caller's queued and failed uploads (root: everyone's). `.unsupported` when lensd has no upload-url.
    public func uploads() throws(LensClientError) -> [LensUpload] {
        let reply = try managerCall("ListUploads")
        guard reply.count == 1, let uploads = reply[0].arrayValue else { throw .internal("ListUploads answered \(reply)") }
        var listed: [LensUpload] = []
        for upload in uploads { listed.append(try LensUpload(try Fields(upload, "an upload"))) }
        return listed
    }

    /// An attempt now for the result `name`, or for all of the caller's when nil (root:
    /// everyone's), failed ones included. Returns how many; `.notFound` for a name not waiting.
    @discardableResult
    public func retryUploads(name: String? = nil) throws(LensClientError) -> Int {
        let reply = try managerCall("RetryUploads", [.string(name ?? "")])
        return Int(try Reply.single(reply, "RetryUploads") { $0.uint32Value })
    }
}
