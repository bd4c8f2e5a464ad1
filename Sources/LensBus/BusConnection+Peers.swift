import CSystemd

extension BusConnection {
    /// Calls `onGone` once when `peer` (a unique name) leaves the bus. Throws if it is already gone.
    public func track(peer: String, onGone: @escaping () -> Void) throws -> any Cancellable {
        let userdata = Userdata.retain(TrackedPeer(onGone))
        var track: OpaquePointer?
        let result = sd_bus_track_new(bus, &track, TrackedPeer.callback, userdata)
        guard result >= 0 else {
            Userdata.release(userdata)
            throw BusError(errno: result, "tracking \(peer)")
        }
        sd_bus_track_set_destroy_callback(track, Userdata.release)
        let registration = BusRegistration(track: track!)
        try check(sd_bus_track_add_name(track, peer), "tracking \(peer)")
        return registration
    }

    /// The peer's effective uid as the bus reports it, never as the client claims it. Cached:
    /// unique names are never reused, and on dbus-daemon each lookup is a synchronous round trip.
    public func peerUID(_ uniqueName: String) throws -> UInt32 {
        guard uniqueName.hasPrefix(":") else {
            throw BusError.invalidArgs("\(uniqueName) is not a unique name; its owner may change")
        }
        if let uid = peerUIDs[uniqueName] { return uid }
        let uid = try busReportedEUID(uniqueName)
        // Bound the cache for a long-running daemon; a miss only costs one more round trip.
        if peerUIDs.count >= 4096 { peerUIDs.removeAll() }
        peerUIDs[uniqueName] = uid
        return uid
    }

    private func busReportedEUID(_ uniqueName: String) throws -> UInt32 {
        let euid = UInt64(SD_BUS_CREDS_EUID)
        var creds: OpaquePointer?
        try check(sd_bus_get_name_creds(bus, uniqueName, euid, &creds), "asking the bus who \(uniqueName) is")
        defer { sd_bus_creds_unref(creds) }
        // sd-bus may fill fields in from /proc ("augment"), racily; only the bus's own answer counts.
        guard sd_bus_creds_get_augmented_mask(creds) & euid == 0 else {
            throw BusError("org.freedesktop.DBus.Error.AccessDenied", "The bus did not vouch for \(uniqueName)'s uid")
        }
        var uid: uid_t = 0
        try check(sd_bus_creds_get_euid(creds, &uid), "reading \(uniqueName)'s uid")
        return uid
    }
}

/// One peer's disappearance handler, kept alive by the track.
private final class TrackedPeer {
    private var onGone: (() -> Void)?

    init(_ onGone: @escaping () -> Void) {
        self.onGone = onGone
    }

    /// sd-bus calls this when the track becomes empty, i.e. the one name it holds has left.
    static let callback: sd_bus_track_handler_t = { _, userdata in
        let peer = Userdata.borrow(userdata, as: TrackedPeer.self)
        peer.onGone.take()?()
        return 0
    }
}
