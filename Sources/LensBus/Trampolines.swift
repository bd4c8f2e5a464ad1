import CSystemd

/// The three C entry points of every exported vtable: one for methods (the object dispatches
/// on the member name), one getter, one setter. `userdata` is the slot's ExportedObject.
enum Trampolines {
    static let method: sd_bus_message_handler_t = { message, userdata, _ in
        Userdata.borrow(userdata, as: ExportedObject.self).handleCall(Message(retaining: message!))
    }

    static let getProperty: sd_bus_property_get_t = { bus, _, _, property, reply, userdata, error in
        Userdata.borrow(userdata, as: ExportedObject.self)
            .getProperty(String(cString: property!), bus: bus!, into: reply!, returnedError: error)
    }

    static let setProperty: sd_bus_property_set_t = { bus, _, _, property, value, userdata, error in
        Userdata.borrow(userdata, as: ExportedObject.self)
            .setProperty(String(cString: property!), bus: bus!, from: value!, returnedError: error)
    }
}
