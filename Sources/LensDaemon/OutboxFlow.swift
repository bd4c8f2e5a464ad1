import FoundationEssentials
import LensBus
import LensContract
import LensCore
import LensNetwork
import LensStorage

/// The outbox as lensd runs it: results are queued by the flows that store them, the outbox's
/// own thread sends them, and what becomes of each reaches its owner's sessions
/// (ResultUploaded, UploadFailed) and everyone in the group as Manager.OutboxState.
final class OutboxFlow {
    let outbox: Outbox
    private let store: ResultStore
    private let sessions: Sessions
    private let manager: ManagerSignals
    /// The state as last announced (loop thread only).
    private var announced = OutboxSummary.empty

    /// nil when no upload-url is set. The auth file is read once, here: a bad one stops lensd at
    /// start-up rather than failing every upload later.
    static func make(_ configuration: Configuration, stateDirectory: URL, store: ResultStore, sessions: Sessions,
                     manager: ManagerSignals, loop: any LoopExecutor) throws -> OutboxFlow? {
        guard let url = configuration.uploadURL else { return nil }
        let authorization = try configuration.uploadAuthFile.map(UploadCredential.authorization(fromFile:))
        if let ca = configuration.uploadCA, !FileManager.default.isReadableFile(atPath: ca) {
            throw ConfigurationError("upload-ca \(ca) cannot be read")
        }
        if authorization != nil && url.lowercased().hasPrefix("http://") {
            Log.warning("outbox: upload-url is plain http: the upload-auth-file credential is sent unencrypted")
        }
        let settings = OutboxSettings(urlTemplate: url, authorization: authorization, caFile: configuration.uploadCA,
                                      maxBytes: configuration.uploadMaxBytes, keepLocalCopy: configuration.uploadKeep,
                                      retryMaxSeconds: Double(configuration.uploadRetryMax.components.seconds),
                                      attemptSeconds: Double(configuration.uploadTimeout.components.seconds))
        return try OutboxFlow(settings, directory: stateDirectory.appendingPathComponent("outbox").path, store: store,
                              sessions: sessions, manager: manager, loop: loop)
    }

    private init(_ settings: OutboxSettings, directory: String, store: ResultStore, sessions: Sessions, manager: ManagerSignals,
                 loop: any LoopExecutor) throws {
        self.store = store
        self.sessions = sessions
        self.manager = manager
        let relay = loop.confine(Relay<OutboxFlow>())
        outbox = try Outbox(settings: settings, directory: directory, onEvent: { event in
            relay.post { $0.flow?.handle(event) }
        }, onDamagedRecord: { file, error in
            Log.error("outbox: \(file) is unreadable and was skipped: \(error)")
        })
        relay.value.flow = self
        announced = outbox.summary
        Log.info("outbox: sending results to \(settings.urlTemplate) (\(announced.queued) waiting)")
    }

    func stop() { outbox.stop() }

    // MARK: Events (loop thread)

    private func handle(_ event: Outbox.Event) {
        switch event {
        case .delivered(let record, let url, let status):
            Log.info("outbox: \(record.name) delivered to \(url) (HTTP \(status))")
            if !outbox.settings.keepLocalCopy {
                do { try store.remove(name: record.name, uid: record.uid) } catch {
                    Log.warning("outbox: \(record.name) delivered but its local copy could not be removed: \(error)")
                }
            }
            sessions.emit(.resultUploaded, [.string(record.name), .vardict([
                "url": .string(url), "status": .uint32(UInt32(status)),
                "sha256": .string(record.sha256 ?? ""), "size": .uint64(UInt64(record.size)),
            ])], toSessionsOf: record.uid)
        case .failed(let record, let error, let message):
            Log.warning("outbox: \(record.name) not sent (\(error)): \(message)")
            sessions.emit(.uploadFailed, [.string(record.name), .string(error), .string(message)], toSessionsOf: record.uid)
        case .changed(let summary):
            guard summary != announced else { return }
            announced = summary
            // Nothing personal, like the other Manager properties: broadcast.
            manager.propertiesChanged(["OutboxState": Self.wire(summary)])
        }
    }

    static func wire(_ summary: OutboxSummary) -> BusValue {
        .vardict([
            "queued": .uint32(UInt32(clamping: summary.queued)), "bytes": .uint64(UInt64(summary.bytes)),
            "last_error": .string(summary.lastError), "next_attempt": .uint64(UInt64(max(0, summary.nextAttempt))),
        ])
    }

    /// ListUploads' entry for one record.
    static func wire(_ record: OutboxRecord) -> BusValue {
        .vardict([
            "name": .string(record.name), "uid": .uint32(record.uid), "state": .string(record.state.rawValue),
            "mime": .string(record.mime), "size": .uint64(UInt64(record.size)), "attempts": .uint32(UInt32(clamping: record.attempts)),
            "next_attempt": .uint64(UInt64(max(0, record.nextAttempt))), "last_error": .string(record.lastError ?? ""),
        ])
    }
}
