import LensClient

/// `lensctl devices`: the cameras lensd can use.
enum DevicesCommand: Command {
    static let name = "devices"
    static let synopsis = "devices                the cameras lensd can use"
    static let help = """
    usage: lensctl devices [--bus ADDRESS] [--json]

    Lists every camera lensd can use: device node, name, driver, bus, position, formats, and
    whether it is virtual (vivid, v4l2loopback or the synthetic camera).
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv)
        _ = try args.positionals(0, "no arguments")
        let camera = try Connection.camera(args)
        let devices = try Connection.client { () throws(LensClientError) in try camera.devices() }
        if args.json {
            Output.json(DevicesJSON(devices: devices.map(DeviceDescriptionJSON.init)))
        } else if devices.isEmpty {
            Output.line("no cameras")
        } else {
            for device in devices {
                let virtual = device.isVirtual ? ", virtual" : ""
                Output.line("\(device.path)\t\(device.position.rawValue)\t\(device.name) (\(device.driver), \(device.busInfo)\(virtual))\t\(device.formats.joined(separator: ","))")
            }
        }
        return .ok
    }
}

struct DevicesJSON: Encodable {
    var devices: [DeviceDescriptionJSON]
}

struct DeviceDescriptionJSON: Encodable {
    var path: String
    var name: String
    var driver: String
    var bus_info: String
    var position: String
    var virtual: Bool
    var formats: [String]

    init(_ device: LensDeviceDescription) {
        path = device.path
        name = device.name
        driver = device.driver
        bus_info = device.busInfo
        position = device.position.rawValue
        virtual = device.isVirtual
        formats = device.formats
    }
}
