import CSystemd

extension BusConnection {
    /// Exports `object` at `path` under its interface; sd-bus adds Introspectable, Properties
    /// and Peer. The returned registration unexports on cancel or release.
    public func export(_ object: BusInterface, at path: String) throws -> any Cancellable {
        let exported = try ExportedObject(object, connection: self)
        let userdata = Userdata.retain(exported)
        var slot: OpaquePointer?
        let result = sd_bus_add_object_vtable(bus, &slot, path, exported.interface.name,
                                              exported.vtable.entries, userdata)
        guard result >= 0 else {
            Userdata.release(userdata)
            throw BusError(errno: result, "exporting \(exported.interface.name) at \(path)")
        }
        // Released on destroy, not on cancel: sd-bus may still be dispatching into this
        // object (an object that unexports itself from a handler) and reads the vtable then.
        sd_bus_slot_set_destroy_callback(slot, Userdata.release)
        return BusRegistration(slot: slot!)
    }
}
