/// The frozen names of lensd's D-Bus API (DESIGN.md; dbus/org.lensd.Lens1.xml is the contract).
enum Lens1 {
    static let busName = "org.lensd.Lens1"
    static let managerPath = "/org/lensd/Lens1"
    static let managerInterface = "org.lensd.Lens1.Manager"
    static let sessionInterface = "org.lensd.Lens1.Session"
    static let errorPrefix = "org.lensd.Lens1.Error."
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
}
