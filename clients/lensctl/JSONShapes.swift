import FoundationEssentials
import LensClient

// The JSON shapes several commands share (docs/schemas/lensctl-*.schema.json, "$defs").

struct LocationJSON: Encodable {
    var latitude: Double
    var longitude: Double
    var altitude_m: Double?
    var accuracy_m: Double
    var fix_time: Date
    var mode: String

    init(_ location: LensLocation) {
        latitude = location.latitude
        longitude = location.longitude
        altitude_m = location.altitude
        accuracy_m = location.accuracy
        fix_time = location.fixTime
        mode = location.mode.rawValue
    }
}

struct DeviceJSON: Encodable {
    var position: String
    var name: String
    var path: String
    var has_flash: Bool
    var is_flash_available: Bool
    var flash_mode: String
    var supported_flash_modes: [String]
    var can_zoom: Bool
    var zoom_factor: Double
    var max_zoom_factor: Double
    var digital_zoom: Bool

    init(_ device: LensCaptureDevice) {
        position = device.position.rawValue
        name = device.name
        path = device.path
        has_flash = device.hasFlash
        is_flash_available = device.isFlashAvailable
        flash_mode = device.flashMode.rawValue
        supported_flash_modes = device.supportedFlashModes.map(\.rawValue)
        can_zoom = device.canZoom
        zoom_factor = device.videoZoomFactor
        max_zoom_factor = device.maxZoomFactor
        digital_zoom = device.isDigitalZoom
    }
}

struct PointJSON: Encodable {
    var x: Double
    var y: Double

    init(_ point: LensPoint) {
        x = point.x
        y = point.y
    }
}
