import Foundation
import LensBus
import LensCore

/// LensCore values as the bus carries them: string wire values, a{sv} dictionaries.
enum Wire {
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

    static func result(_ stored: StoredResult) -> BusValue {
        .vardict([
            "size": .uint64(UInt64(stored.size)),
            "sha256": .string(stored.sha256),
            "mime": .string(stored.mime),
        ])
    }

    static func reasons(_ reasons: [DisabledReason]) -> BusValue {
        .stringArray(reasons.map(\.rawValue))
    }
}
