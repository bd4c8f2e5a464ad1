import C2PA
import FoundationEssentials
import Glibc
import LensCamera
import LensIdentity
import LensMedia
import LensNetwork
import LensSystem
import LensBus
import LensCore
import LensCrypto
import LensFace

/// lensd's settings. Every key of /etc/lensd/lensd.conf is also an option (`--key value`); the
/// command line wins over the file.
struct Configuration {
    enum CameraChoice: Equatable {
        case auto, synthetic
        case device(String)
    }

    var bus: BusAddress = .system
    var configPath = "/etc/lensd/lensd.conf"
    var stateDirectory = "/var/lib/lensd"
    var camera: CameraChoice = .auto
    var syntheticSize = (width: 1920, height: 1080)
    /// The synthetic camera's scripted picture, decoded when the key is read (a bad directory is a configuration error).
    var syntheticFrames: SyntheticFrames?
    /// The LBP cascade face auto-capture uses; read the first time a session starts one.
    var faceCascadePath = LBPCascade.defaultPath
    var faceCascadeIsExplicit = false
    /// The photo size asked of V4L2 cameras (the driver may pick the nearest it has).
    var captureSize = (width: 1920, height: 1080)
    /// vivid and v4l2loopback make frames up: refused unless a test setup allows them.
    var allowVirtualDevices = false
    /// Device path → position, for cameras that do not report their orientation.
    var cameraPositions: [String: CameraPosition] = [:]
    /// nil: `--gpsd none`.
    var gpsd: (host: String, port: String)? = ("127.0.0.1", "2947")
    var locationPolicy: LocationPolicy = .required
    var declaredLocation: DeclaredLocation?
    var keyPath: String?
    var chainPath: String?
    var trustAnchorPath: String?
    /// `key = pkcs11:…`, with the module and PIN file it needs (see validateKeys).
    var pkcs11URI: PKCS11URI?
    var pkcs11Module: String?
    var pkcs11PinFile: String?
    /// `key = tpm2:`.
    var usesTPM = false
    var enrollment: IdentityConfiguration.Enrollment = .selfIssued
    /// `certificate-profile`: nil is `c2pa-rs` (c2pa-rs's signer profile only).
    var certificateProfile: ConformanceLeafProfile?
    var organizationTrustAnchorPath: String?
    /// `enrollment = est` (see Configuration+EST): the EST server, the roots its TLS certificate
    /// must chain to (nil: the system store), and the credential of the first enrollment.
    var estURL: String?
    var estCA: String?
    var estCredentialFile: String?
    /// Within this time of the device certificate's expiry, lensd and `lensctl status` warn that
    /// it is due for renewal.
    var renewBefore: Duration = .seconds(30 * 86_400)
    var allowedGroup = "lens"
    var maxSessionsPerUser = 4
    var sessionIdleTimeout: Duration = .seconds(300)
    /// A camera claim unused for this long is released while another client waits for the camera.
    var claimIdleTimeout: Duration = .seconds(30)
    var maxResultsPerUser = 100
    var maxResultBytesPerUser: Int64 = 1 << 30
    var minFreeBytes: Int64 = 64 << 20
    var jpegQuality = 90
    var includeThumbnail = false
    var videoUsesMJPEG = false
    /// nil: 2.5 Mb/s at 720p, scaled by pixel count.
    var videoBitrate: Int?
    /// A recording that reaches either limit is stopped and signed as if the owner had stopped it.
    var maxVideoDuration: Double = 3600
    var maxVideoBytes = 2 << 30
    /// Sound in videos: auto records it when the capture device opens, on requires it, off never.
    var audio = AudioMode.auto
    var audioDevice = "default"
    /// nil: 64 kb/s mono, 96 kb/s stereo.
    var audioBitrate: Int?
    var audioChannels = 1
    var logLevel: LogLevel = .info
    /// The outbox (off while nil): see OutboxFlow.
    var uploadURL: String?
    var uploadAuthFile: String?
    var uploadCA: String?
    var uploadMaxBytes = 100 << 20
    var uploadKeep = true
    var uploadRetryMax: Duration = .seconds(3600)
    var uploadTimeout: Duration = .seconds(300)
    /// RFC 3161 time-stamping (see Configuration+TimeStamping): off while no TSA is named.
    var tsaURLs: [String] = []
    var tsaTrustAnchors: [Certificate] = []
    var tsaTimeout: Duration = .seconds(5)
    /// nil: the default, which depends on tsa-url.
    var timestampPolicy: TimeStampPolicy?
    /// Checking the device certificate's revocation (see Configuration+Revocation); nil: the
    /// default, which depends on ocsp-url and the certificate.
    var ocspPolicy: RevocationPolicy?
    var ocspURL: String?
    var ocspInterval: Duration = .seconds(3600)

    static let usage = """
    usage: lensd [--check-config] [--bus system|session|ADDRESS] [--config FILE] [--state-dir DIR]
                 [--camera auto|synthetic|/dev/videoN] [--capture-size WxH] [--allow-virtual-devices true|false]
                 [--camera-position /dev/videoN=back|front|external,...] [--gpsd HOST:PORT|none]
                 [--location required|optional|never] [--log-level debug|info|warning|error|none]
                 [--KEY VALUE for any key of the configuration file]
    """

    /// `certificate-profile`'s default: the leaf need only meet c2pa-rs's signer profile.
    static let c2paRSProfile = "c2pa-rs"

    /// Every key, for "did you mean" (a test keeps it equal to the keys config/lensd.conf documents).
    static let keys = [
        "bus", "config", "state-dir", "camera", "synthetic-size", "synthetic-frames", "capture-size", "allow-virtual-devices",
        "camera-position", "gpsd", "location", "declared-location", "key", "chain", "trust-anchor", "pkcs11-module",
        "pkcs11-pin-file", "enrollment", "org-trust-anchor", "certificate-profile", "renew-before", "allowed-group",
        "max-sessions-per-user", "session-idle-timeout", "claim-idle-timeout", "max-results-per-user", "max-result-bytes-per-user",
        "min-free-bytes", "jpeg-quality", "thumbnail-in-manifest", "video-encoding", "video-bitrate",
        "video-max-duration", "video-max-bytes", "audio", "audio-device", "audio-bitrate", "audio-channels", "log-level",
        "upload-url", "upload-auth-file", "upload-ca", "upload-max-bytes", "upload-keep", "upload-retry-max",
        "upload-timeout", "face-cascade",
    ] + timeStampingKeys + revocationKeys + estKeys

    /// Reads the file named by `--config` (default /etc/lensd/lensd.conf; a missing default file
    /// is fine, a missing named one is not), then applies the command line.
    static func load(arguments: [String]) throws -> Configuration {
        let options: [(key: String, value: String)]
        do { options = try parseOptions(arguments) } catch var error as ConfigurationError {
            error.isCommandLine = true
            throw error
        }
        var configuration = Configuration()
        let explicitFile = options.last { $0.key == "config" }?.value
        if let path = explicitFile { configuration.configPath = path }
        if explicitFile != nil || FileManager.default.fileExists(atPath: configuration.configPath) {
            let path = configuration.configPath
            let trusted = isRootOwned(path)
            for entry in try parseFile(try ConfigurationFile.read(path), path: path) {
                do { try configuration.apply(key: entry.key, value: entry.value, fromRootOwnedFile: trusted) } catch let e as ConfigurationError {
                    throw ConfigurationError("\(path):\(entry.line): \(e.message)")
                }
            }
        }
        for option in options where option.key != "config" {
            do { try configuration.apply(key: option.key, value: option.value, fromRootOwnedFile: false) } catch var error as ConfigurationError {
                error.message = "--\(option.key): \(error.message)"
                error.isCommandLine = true
                throw error
            }
        }
        try configuration.validateKeys()
        try configuration.validateTimeStamping()
        try configuration.validateEST()
        return configuration
    }

    private mutating func apply(key: String, value: String, fromRootOwnedFile: Bool) throws {
        switch key {
        case "bus":
            bus = value == "system" ? .system : value == "session" ? .session : .address(value)
        case "state-dir": stateDirectory = value
        case "camera":
            switch value {
            case "auto": camera = .auto
            case "synthetic": camera = .synthetic
            case let path where path.hasPrefix("/dev/"): camera = .device(path)
            default: throw ConfigurationError("camera must be auto, synthetic or a /dev path, not \(value)")
            }
        case "synthetic-size": syntheticSize = try Self.size(key, value)
        case "synthetic-frames":
            do { syntheticFrames = try SyntheticFrames(directory: value) } catch { throw ConfigurationError("\(error)") }
        case "face-cascade":
            guard value.hasPrefix("/") else { throw ConfigurationError("face-cascade must be an absolute path, not \(value)") }
            faceCascadePath = value
            faceCascadeIsExplicit = true
        case "capture-size": captureSize = try Self.size(key, value)
        case "allow-virtual-devices":
            guard let flag = Bool(value) else { throw ConfigurationError("allow-virtual-devices must be true or false") }
            allowVirtualDevices = flag
        case "camera-position":
            for entry in value.split(separator: ",") {
                let parts = entry.split(separator: "=").map { $0.trimmed() }
                guard parts.count == 2, parts[0].hasPrefix("/dev/"), let position = CameraPosition(rawValue: parts[1]) else {
                    throw ConfigurationError("camera-position must be /dev/videoN=back|front|external[,...], not \(entry)")
                }
                cameraPositions[parts[0]] = position
            }
        case "gpsd":
            if value == "none" { gpsd = nil; return }
            guard let colon = value.lastIndex(of: ":"), !value[..<colon].isEmpty, UInt16(value[value.index(after: colon)...]) != nil else {
                throw ConfigurationError("gpsd must be HOST:PORT or none, not \(value)")
            }
            gpsd = (String(value[..<colon]), String(value[value.index(after: colon)...]))
        case "location":
            guard let policy = LocationPolicy(rawValue: value) else {
                throw ConfigurationError("location must be required, optional or never, not \(value)")
            }
            locationPolicy = policy
        case "declared-location":
            guard fromRootOwnedFile else {
                throw ConfigurationError("declared-location is only read from a root-owned configuration file")
            }
            let numbers = value.split(separator: ",").map { Double($0.trimmed()) }
            guard (2...3).contains(numbers.count), numbers.allSatisfy({ $0?.isFinite == true }),
                  abs(numbers[0]!) <= 90, abs(numbers[1]!) <= 180 else {
                throw ConfigurationError("declared-location must be LATITUDE,LONGITUDE[,ALTITUDE]")
            }
            declaredLocation = DeclaredLocation(latitude: numbers[0]!, longitude: numbers[1]!,
                                                altitude: numbers.count == 3 ? numbers[2] : nil, accuracy: 3)
        case "key":
            keyPath = nil
            pkcs11URI = nil
            usesTPM = false
            if value.hasPrefix("tpm2:") {
                guard value == "tpm2:" else {
                    throw ConfigurationError("key = tpm2: takes nothing after the colon: lensd creates the key in the TPM and keeps its wrapped blob")
                }
                usesTPM = true
            } else if value.hasPrefix("pkcs11:") {
                do { pkcs11URI = try PKCS11URI(parsing: value) } catch { throw ConfigurationError(error.description) }
            } else {
                keyPath = value
            }
        case "pkcs11-module": pkcs11Module = value
        case "pkcs11-pin-file": pkcs11PinFile = value
        case "enrollment":
            guard let mode = IdentityConfiguration.Enrollment(rawValue: value) else {
                throw ConfigurationError("enrollment must be self, org or est, not \(value)")
            }
            enrollment = mode
        case "org-trust-anchor": organizationTrustAnchorPath = value
        case "certificate-profile":
            guard value == Self.c2paRSProfile || ConformanceLeafProfile(rawValue: value) != nil else {
                throw ConfigurationError("certificate-profile must be c2pa-al1, c2pa-al2 or \(Self.c2paRSProfile), not \(value)")
            }
            certificateProfile = ConformanceLeafProfile(rawValue: value)
        case "renew-before": renewBefore = .seconds(try Self.seconds(key, value, 0...3650 * 86_400))
        case "chain": chainPath = value
        case "trust-anchor": trustAnchorPath = value
        case "allowed-group": allowedGroup = value
        case "max-sessions-per-user": maxSessionsPerUser = try Self.integer(key, value, 1...1000)
        case "session-idle-timeout": sessionIdleTimeout = .seconds(try Self.seconds(key, value, 5...86_400))
        case "claim-idle-timeout": claimIdleTimeout = .seconds(try Self.seconds(key, value, 1...86_400))
        case "max-results-per-user": maxResultsPerUser = try Self.integer(key, value, 1...1_000_000)
        case "max-result-bytes-per-user": maxResultBytesPerUser = Int64(try Self.bytes(key, value, 1 << 20...Int.max))
        case "min-free-bytes": minFreeBytes = Int64(try Self.bytes(key, value, 0...Int.max))
        case "jpeg-quality": jpegQuality = try Self.integer(key, value, 1...100)
        case "thumbnail-in-manifest":
            guard let flag = Bool(value) else { throw ConfigurationError("thumbnail-in-manifest must be true or false") }
            includeThumbnail = flag
        case "video-encoding":
            guard value == "h264" || value == "mjpeg" else {
                throw ConfigurationError("video-encoding must be h264 or mjpeg, not \(value)")
            }
            videoUsesMJPEG = value == "mjpeg"
        case "video-bitrate": videoBitrate = try Self.integer(key, value, 100_000...50_000_000)
        case "video-max-duration": maxVideoDuration = Double(try Self.seconds(key, value, 1...86_400))
        case "video-max-bytes": maxVideoBytes = try Self.bytes(key, value, 1 << 20...Int.max)
        case "audio":
            guard let mode = AudioMode(rawValue: value) else { throw ConfigurationError("audio must be auto, on or off, not \(value)") }
            audio = mode
        case "audio-device":
            guard !value.isEmpty else { throw ConfigurationError("audio-device must name an ALSA PCM (default: default)") }
            audioDevice = value
        case "audio-bitrate": audioBitrate = try Self.integer(key, value, 6_000...510_000)
        case "audio-channels": audioChannels = try Self.integer(key, value, 1...2)
        case "log-level":
            guard let level = LogLevel(name: value) else {
                throw ConfigurationError("log-level must be debug, info, warning, error or none")
            }
            logLevel = level
        case "upload-url":
            do { try UploadURL.validate(value) } catch { throw ConfigurationError("\(error)") }
            uploadURL = value
        case "upload-auth-file": uploadAuthFile = try Self.absolutePath(key, value)
        case "upload-ca": uploadCA = try Self.absolutePath(key, value)
        case "upload-max-bytes": uploadMaxBytes = try Self.bytes(key, value, 1...Int.max)
        case "upload-keep":
            guard let flag = Bool(value) else { throw ConfigurationError("upload-keep must be true or false") }
            uploadKeep = flag
        case "upload-retry-max": uploadRetryMax = .seconds(try Self.seconds(key, value, 1...86_400))
        case "upload-timeout": uploadTimeout = .seconds(try Self.seconds(key, value, 1...86_400))
        case _ where Self.timeStampingKeys.contains(key): try applyTimeStamping(key: key, value: value)
        case _ where Self.revocationKeys.contains(key): try applyRevocation(key: key, value: value)
        case _ where Self.estKeys.contains(key): try applyEST(key: key, value: value)
        default:
            let hint = KeySuggestion.nearest(to: key, among: Self.keys).map { " — did you mean \($0)?" } ?? ""
            throw ConfigurationError("unknown setting \(key)\(hint)")
        }
    }

    /// The settings a device key needs together; a half-configured key is a start-up error, not
    /// a daemon that cannot sign.
    private func validateKeys() throws {
        if pkcs11URI != nil {
            guard pkcs11Module != nil, pkcs11PinFile != nil else {
                throw ConfigurationError("key = pkcs11:… needs pkcs11-module (the module's .so) and pkcs11-pin-file (the token's PIN)")
            }
            guard enrollment.isOrganization else {
                throw ConfigurationError("key = pkcs11:… needs enrollment = org or est: a token key is certified by the organization's CA")
            }
        }
        if usesTPM && !enrollment.isOrganization {
            throw ConfigurationError("key = tpm2: needs enrollment = org or est: a TPM key is certified by the organization's CA")
        }
        if enrollment.isOrganization {
            guard organizationTrustAnchorPath != nil else {
                throw ConfigurationError("enrollment = \(enrollment.rawValue) needs org-trust-anchor, the organization's root certificate")
            }
            guard chainPath == nil else {
                throw ConfigurationError("chain is not read with enrollment = \(enrollment.rawValue): the chain comes from the organization's CA")
            }
        }
    }

    /// The PKCS#11 key, when `key` is a pkcs11: URI.
    var pkcs11: PKCS11KeyConfiguration? {
        guard let pkcs11URI, let pkcs11Module, let pkcs11PinFile else { return nil }
        return PKCS11KeyConfiguration(uri: pkcs11URI, modulePath: pkcs11Module, pinFile: pkcs11PinFile)
    }

    var audioSettings: AudioSettings {
        AudioSettings(device: audioDevice, channels: audioChannels, bitrate: audioBitrate)
    }

    var videoEncoding: VideoEncoding {
        videoUsesMJPEG ? .mjpeg(quality: jpegQuality) : .h264(bitrate: videoBitrate)
    }

    private static func size(_ key: String, _ value: String) throws -> (width: Int, height: Int) {
        let parts = value.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (16...8192).contains(parts[0]), (16...8192).contains(parts[1]) else {
            throw ConfigurationError("\(key) must be WIDTHxHEIGHT, e.g. 1920x1080")
        }
        return (parts[0], parts[1])
    }

    private static func integer(_ key: String, _ value: String, _ range: ClosedRange<Int>) throws -> Int {
        guard let n = Int(value), range.contains(n) else {
            throw ConfigurationError("\(key) must be a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return n
    }

    /// Bytes, with an optional binary suffix: 64M, 1G, 512KiB.
    private static func bytes(_ key: String, _ value: String, _ range: ClosedRange<Int>) throws -> Int {
        guard let n = Quantity.parse(value, units: Quantity.byteUnits), range.contains(n) else {
            throw ConfigurationError("\(key) must be a size in bytes (suffix K, M, G or T allowed) from \(range.lowerBound), not \(value)")
        }
        return n
    }

    static func absolutePath(_ key: String, _ value: String) throws -> String {
        guard value.hasPrefix("/") else { throw ConfigurationError("\(key) must be an absolute path, not \(value)") }
        return value
    }

    /// Seconds, with an optional unit: 90, 90s, 5m, 1h, 1d.
    static func seconds(_ key: String, _ value: String, _ range: ClosedRange<Int>) throws -> Int {
        guard let n = Quantity.parse(value, units: Quantity.timeUnits), range.contains(n) else {
            throw ConfigurationError("\(key) must be a duration of \(range.lowerBound)...\(range.upperBound) s (suffix s, m, h or d allowed), not \(value)")
        }
        return n
    }

    private static func parseOptions(_ arguments: [String]) throws -> [(key: String, value: String)] {
        var options: [(String, String)] = []
        var rest = arguments[...]
        while let arg = rest.popFirst() {
            guard arg.hasPrefix("--"), arg.count > 2 else { throw ConfigurationError("unexpected argument \(arg)") }
            var key = String(arg.dropFirst(2))
            var value: String
            if let eq = key.firstIndex(of: "=") {
                value = String(key[key.index(after: eq)...])
                key = String(key[..<eq])
            } else {
                guard let next = rest.popFirst() else { throw ConfigurationError("--\(key) needs a value") }
                value = next
            }
            options.append((key, value))
        }
        return options
    }

    private static func parseFile(_ text: String, path: String) throws -> [(line: Int, key: String, value: String)] {
        try text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, raw in
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmed()
            if line.isEmpty { return nil }
            guard let eq = line.firstIndex(of: "=") else {
                throw ConfigurationError("\(path):\(index + 1): expected key = value, not \(line)")
            }
            return (index + 1, line[..<eq].trimmed(),
                    line[line.index(after: eq)...].trimmed())
        }
    }

    /// A declared location changes what photos attest, so only root may declare it.
    private static func isRootOwned(_ path: String) -> Bool {
        guard let info = try? FileSystem.status(path, followingLinks: true) else { return false }
        return info.owner == 0 && info.mode & 0o022 == 0
    }
}

struct ConfigurationError: Error, CustomStringConvertible {
    var message: String
    /// A mistake on the command line, where the usage helps; a file's mistake names its line instead.
    var isCommandLine = false
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// The `audio` key: whether videos have sound.
enum AudioMode: String {
    /// Sound when the capture device opens; silent videos otherwise (they say audio false).
    case auto
    /// Sound required: without a usable device capture is disabled (reason microphone).
    case on
    case off
}
