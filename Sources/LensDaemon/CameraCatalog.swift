import LensCamera
import LensCore

/// Which cameras lensd uses: at start, and again whenever hot-plug polling looks at /sys.
enum CameraCatalog {
    /// The synthetic camera only when asked for by name, never as a fallback.
    static func cameras(for configuration: Configuration) -> [any Camera] {
        switch configuration.camera {
        case .synthetic:
            let frames = configuration.syntheticFrames
            let (width, height) = frames.map { ($0.width, $0.height) } ?? configuration.syntheticSize
            let picture = frames.map { "\($0.count) scripted frames" } ?? "test pattern"
            Log.info("camera: synthetic \(picture) \(width)x\(height) (photos say algorithmicMedia)")
            return [CameraPosition.back, .front].map {
                SyntheticCamera(width: width, height: height, quality: configuration.jpegQuality, position: $0, frames: frames)
            }
        case .auto, .device:
            let found = devices(configuration, logging: true)
            if found.isEmpty { Log.warning("capture disabled (camera): no supported camera found") }
            return v4l2Cameras(found, configuration)
        }
    }

    /// The V4L2 devices the configuration asks for: real ones from /sys, virtual drivers only
    /// when allowed. `logging` is false on repeated polls, which would otherwise say the same
    /// thing every two seconds.
    static func devices(_ configuration: Configuration, logging: Bool) -> [CameraDescription] {
        let found = V4L2Discovery.cameras(configuredPositions: configuration.cameraPositions) { path, problem in
            if logging { Log.warning("camera: skipping \(path): \(problem)") }
        }
        return found.filter { configuration.wants($0) }.filter { device in
            guard device.isVirtual, !configuration.allowVirtualDevices else { return true }
            if logging {
                Log.warning("camera: refusing \(device.path) (\(device.driver) is a virtual driver; set allow-virtual-devices for tests)")
            }
            return false
        }
    }

    static func v4l2Cameras(_ devices: [CameraDescription], _ configuration: Configuration) -> [any Camera] {
        let settings = V4L2Camera.Settings(width: configuration.captureSize.width, height: configuration.captureSize.height,
                                           frameRate: V4L2Camera.defaultFrameRate, quality: configuration.jpegQuality)
        return devices.map { device in
            Log.info("camera: \(device.path) \(device.driver) \"\(device.name)\" \(device.busInfo) \(device.position.rawValue) [\(device.formats.joined(separator: " "))]")
            return V4L2Camera(device, settings: settings)
        }
    }
}

private extension Configuration {
    /// `--camera auto` takes every device found, a path only that device.
    func wants(_ device: CameraDescription) -> Bool {
        switch camera {
        case .synthetic: false
        case .auto: true
        case .device(let path): device.path == path
        }
    }
}
