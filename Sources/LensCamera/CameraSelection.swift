/// Which camera a session starts on and where ChangeCamera goes, as the SDK does it: the back
/// camera first, and the switch toggles between back and front. External and unplaced cameras
/// are never reached by the toggle (a client picks one from ListDevices); from one of them the
/// toggle goes to the back camera, or the front one when there is no back.
public enum CameraSelection {
    /// The first back camera, whatever order the devices are listed in; else the first one.
    public static func initial(_ positions: [CameraPosition]) -> Int? {
        positions.firstIndex(of: .back) ?? positions.indices.first
    }

    /// The camera facing the other way from `current`; nil when there is none.
    public static func toggled(from current: Int, _ positions: [CameraPosition]) -> Int? {
        guard positions.indices.contains(current) else { return nil }
        let target: [CameraPosition] = switch positions[current] {
        case .back: [.front]
        case .front: [.back]
        case .external, .unspecified: [.back, .front]
        }
        for position in target {
            if let index = positions.firstIndex(of: position), index != current { return index }
        }
        return nil
    }
}
