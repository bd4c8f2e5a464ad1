import FoundationEssentials
import LensImaging
import LensSystem

/// The synthetic camera's scripted picture (`synthetic-frames DIR`): the JPEG files of a
/// directory in name order, checked once and decoded as each is played, one per frame at the
/// camera's rate from the first file each time streaming starts, looping at the end. Tests script
/// what the camera sees.
public struct SyntheticFrames: Sendable {
    /// Bounds for a directory read at start-up: enough for a scripted scene, not a film.
    public static let maximumFiles = 1000
    public static let maximumBytes = 256 << 20

    public let width: Int
    public let height: Int
    /// The files' JPEG bytes, in order.
    private let frames: [[UInt8]]

    public var count: Int { frames.count }

    public init(directory: String) throws {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            throw CameraError.invalidArgument("synthetic-frames: cannot list \(directory): \(errorText(error))")
        }
        let files = names.filter { [".jpg", ".jpeg"].contains(where: $0.lowercased().hasSuffix) }.sorted()
        guard !files.isEmpty else { throw CameraError.invalidArgument("synthetic-frames: \(directory) holds no .jpg files") }
        guard files.count <= Self.maximumFiles else {
            throw CameraError.invalidArgument("synthetic-frames: \(directory) holds \(files.count) files (at most \(Self.maximumFiles))")
        }
        var contents: [[UInt8]] = [], size: (width: Int, height: Int)?, total = 0
        for file in files {
            let path = directory + "/" + file
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CameraError.invalidArgument("synthetic-frames: cannot read \(path)")
            }
            let jpeg = [UInt8](data), image: (width: Int, height: Int)
            // Decoded once here, so that playing it (the same bytes, in memory) cannot fail later.
            do { let decoded = try JPEGCodec.decodeRGB(jpeg); image = (decoded.width, decoded.height) } catch {
                throw CameraError.invalidArgument("synthetic-frames: \(path) is not a readable JPEG: \(error)")
            }
            if let size, size != (image.width, image.height) {
                throw CameraError.invalidArgument("synthetic-frames: \(path) is \(image.width)x\(image.height), the first file \(size.width)x\(size.height)")
            }
            guard (16...8192).contains(image.width), (16...8192).contains(image.height) else {
                throw CameraError.invalidArgument("synthetic-frames: \(path) is \(image.width)x\(image.height) (16...8192 on each side)")
            }
            total += jpeg.count
            guard total <= Self.maximumBytes else {
                throw CameraError.invalidArgument("synthetic-frames: \(directory) holds more than \(Self.maximumBytes >> 20) MiB")
            }
            size = (image.width, image.height)
            contents.append(jpeg)
        }
        frames = contents
        (width, height) = size!
    }

    /// Frame `number` since streaming started, as packed RGB.
    public func rgb(frame number: UInt64) -> [UInt8] {
        let index = Int(number % UInt64(frames.count))
        guard let image = try? JPEGCodec.decodeRGB(frames[index]) else {
            preconditionFailure("synthetic-frames: file \(index) decoded at start-up and cannot fail now")
        }
        return image.rgb
    }
}
