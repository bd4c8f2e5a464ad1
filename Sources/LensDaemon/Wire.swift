import FoundationEssentials
import LensBus
import LensCamera
import LensCore
import LensNetwork
import LensStorage

/// LensCore values as the bus carries them: string wire values, a{sv} dictionaries.
enum Wire {
    /// A point in time as whole seconds since 1970-01-01 UTC; 0 for none.
    static func time(_ date: Date?) -> BusValue {
        .uint64(UInt64(max(0, date?.timeIntervalSince1970 ?? 0)))
    }

    /// Manager.ESTState: empty unless `enrollment = est`; each key only once it has a value.
    static func est(_ status: ESTFlow.Status?) -> BusValue {
        var fields: [String: BusValue] = [:]
        if let last = status?.lastAttempt { fields["last_attempt"] = time(last) }
        if let next = status?.nextAttempt { fields["next_attempt"] = time(next) }
        if let error = status?.lastError { fields["last_error"] = .string(error) }
        return .vardict(fields)
    }

    static func device(_ state: CameraState) -> BusValue {
        .vardict([
            "position": .string(state.description.position.rawValue),
            "name": .string(state.description.name),
            "path": .string(state.description.path),
            "hasFlash": .bool(state.hasFlash),
            "isFlashAvailable": .bool(state.isFlashAvailable),
            "flashMode": .string(state.flashMode.rawValue),
            "supportedFlashModes": .stringArray(state.supportedFlashModes.map(\.rawValue)),
            "canZoom": .bool(state.canZoom),
            "videoZoomFactor": .double(state.zoomFactor),
            "maxZoomFactor": .double(state.maxZoomFactor),
            "digitalZoom": .bool(state.digitalZoom),
        ])
    }

    static func listedDevice(_ d: CameraDescription) -> BusValue {
        .vardict([
            "path": .string(d.path),
            "name": .string(d.name),
            "driver": .string(d.driver),
            "bus_info": .string(d.busInfo),
            "position": .string(d.position.rawValue),
            "virtual": .bool(d.isVirtual),
            "formats": .stringArray(d.formats),
        ])
    }

    /// Empty when there is no fix. fixTime: microseconds since 1970 (the fix's own clock).
    static func location(_ fix: LocationFix?) -> BusValue {
        guard let fix else { return .vardict([:]) }
        var entries: [String: BusValue] = [
            "latitude": .double(fix.latitude),
            "longitude": .double(fix.longitude),
            "accuracy": .double(fix.horizontalAccuracy),
            "fixTime": .uint64(UInt64(max(0, fix.fixTime.timeIntervalSince1970 * 1_000_000))),
            "mode": .string(fix.isDeclared ? "declared" : fix.mode.rawValue),
        ]
        if let altitude = fix.altitude, fix.mode == .threeD || fix.isDeclared { entries["altitude"] = .double(altitude) }
        return .vardict(entries)
    }

    /// PhotoSigned/VideoSigned's `timestamped b` and, when stamped, `timestamp_time t` (the TSA's
    /// genTime, seconds since 1970).
    static func timeStamp(_ outcome: TimeStamping.Outcome?) -> [String: BusValue] {
        guard case .stamped(let time) = outcome else { return ["timestamped": .bool(false)] }
        return ["timestamped": .bool(true), "timestamp_time": .uint64(UInt64(max(0, time.timeIntervalSince1970)))]
    }

    /// For the log line of a signed capture: whether it is time-stamped, and why not.
    static func timeStampNote(_ outcome: TimeStamping.Outcome?) -> String {
        switch outcome {
        case nil: ""
        case .stamped(let time)?: ", time-stamped \(time)"
        case .unstamped(let reason)?: ", not time-stamped: \(reason)"
        }
    }

    /// size, mime and — when known — sha256; `extra` adds a video's duration and the like.
    static func result(_ stored: StoredResult, _ extra: [String: BusValue] = [:]) -> BusValue {
        var entries: [String: BusValue] = ["size": .uint64(UInt64(stored.size)), "mime": .string(stored.mime)]
        if let sha256 = stored.sha256 { entries["sha256"] = .string(sha256) }
        return .vardict(entries.merging(extra) { $1 })
    }

    /// A ListResults entry: what `result` says, plus when it was stored (seconds since 1970),
    /// whether it is signed, and whether it was recovered after a crash.
    static func listedResult(_ stored: StoredResult) -> BusValue {
        result(stored, [
            "name": .string(stored.name),
            "created": .uint64(UInt64(max(0, stored.created.timeIntervalSince1970))),
            "signed": .bool(stored.signed),
            "recovered": .bool(stored.recovered),
        ])
    }

    /// ResultLimits: the per-user caps retention keeps each user's results within.
    static func resultLimits(_ limits: (count: Int, bytes: Int64)) -> BusValue {
        .vardict(["maxCount": .uint32(UInt32(clamping: limits.count)), "maxBytes": .uint64(UInt64(max(0, limits.bytes)))])
    }

    /// Empty when not recording; the video's name, duration in seconds and bytes on disk so far.
    static func progress(_ recording: Recording?) -> BusValue {
        guard let recording else { return .vardict([:]) }
        return .vardict([
            "name": .string(recording.name),
            "duration": .double(Double(recording.recordedMilliseconds.load(ordering: .relaxed)) / 1000),
            "size": .uint64(UInt64(recording.recordedBytes.load(ordering: .relaxed))),
        ])
    }

    static func reasons(_ reasons: [DisabledReason]) -> BusValue {
        .stringArray(reasons.map(\.rawValue))
    }

    /// DisabledReasonDetails: `a{ss}`, reason → what it means now, in reason order.
    static func reasonDetails(_ details: [DisabledReason: String]) -> BusValue {
        .dictionary(keySignature: "s", valueSignature: "s",
                    details.sorted { $0.key < $1.key }.map { DictEntry(key: .string($0.key.rawValue), value: .string($0.value)) })
    }
}
