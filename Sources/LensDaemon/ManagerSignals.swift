import LensBus
import LensContract

/// PropertiesChanged of the Manager's properties, which are nothing personal: broadcast, or sent
/// to one connection (CameraHolder goes to the connections with a session open).
struct ManagerSignals {
    let bus: any BusPort

    func propertiesChanged(_ changed: [String: BusValue], to destination: String? = nil) {
        try? bus.emitPropertiesChanged(path: Lens1.managerPath, interface: Lens1.managerInterface, changed: changed,
                                       destination: destination)
    }
}
