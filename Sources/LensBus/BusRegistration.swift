import CSystemd

/// Keeps something registered on a bus (an exported object, a signal match, a peer track)
/// until `cancel()` or release. Loop thread only.
public final class BusRegistration {
    private enum Handle {
        case slot(OpaquePointer)
        case track(OpaquePointer)
    }

    private var handle: Handle?

    init(slot: OpaquePointer) {
        handle = .slot(slot)
    }

    init(track: OpaquePointer) {
        handle = .track(track)
    }

    /// Idempotent. Safe inside a handler of the registration itself: sd-bus holds its own
    /// reference while it dispatches, and frees the slot after the handler returns.
    public func cancel() {
        switch handle.take() {
        case .slot(let slot): sd_bus_slot_unref(slot)
        case .track(let track): sd_bus_track_unref(track)
        case nil: break
        }
    }

    deinit {
        cancel()
    }
}
