import C2PA
import Foundation
import LensCamera
import LensCore
import LensIdentity
import LensStorage
import LensSystem

/// `capture`: the daemon's photo pipeline in-process on the synthetic camera — frame taken →
/// thumbnail ready (InitialCaptureFinished) and → signed and stored (PhotoSigned) — with the
/// state directory on tmpfs. fsync is timed on its own, since on a real disk it dominates.
struct CaptureBench {
    var runs = 21
    var size = (width: 1920, height: 1080)

    init(_ argv: [String]) throws {
        var rest = argv[...]
        while let arg = rest.popFirst() {
            switch arg {
            case "--runs": runs = Int(rest.popFirst() ?? "") ?? 0
            case "--size": size = try Measure.size(rest.popFirst())
            default: throw BenchError("usage: \(usage)")
            }
        }
        guard runs >= 1 else { throw BenchError("--runs must be at least 1") }
    }

    func run() throws {
        let dir = try Measure.tmpfsDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let identity = DeviceIdentity.load(IdentityConfiguration(stateDirectory: dir, deviceName: "lens-bench"))
        guard let signer = identity.signer else { throw BenchError("no identity: \(identity.problem ?? "?")") }
        let store = try ResultStore(directory: dir.appendingPathComponent("results"), minimumFreeBytes: 0)
        let signing = PhotoSigning(signer: signer, generator: ClaimGeneratorInfo(name: "lens-bench", version: "0"))
        let camera = SyntheticCamera(width: size.width, height: size.height)
        try camera.open()
        defer { camera.close() }

        var toThumbnail: [Double] = [], toSigned: [Double] = [], fsyncs: [Double] = []
        for _ in 0..<runs {
            let photo = try camera.capturePhoto()
            let thumbnailReady = Date()
            let signed = try signing.sign(photo, location: nil).jpeg
            _ = try store.store(parts: [signed], name: UUID().uuidString.lowercased(), uid: getuid(), mime: "image/jpeg",
                                fileExtension: "jpg")
            let stored = Date()
            toThumbnail.append(thumbnailReady.timeIntervalSince(photo.captureTime) * 1000)
            toSigned.append(stored.timeIntervalSince(photo.captureTime) * 1000)
            fsyncs.append(try Self.fsyncTime(bytes: signed, in: dir))
        }
        print("synthetic camera \(size.width)x\(size.height), \(runs) photos, state dir on tmpfs")
        print(String(format: "frame → thumbnail (InitialCaptureFinished)  median %7.2f ms  (target ≤ 30)", Measure.median(toThumbnail)))
        print(String(format: "frame → signed and stored (PhotoSigned)    median %7.2f ms  (target ≤ 60)", Measure.median(toSigned)))
        print(String(format: "of which fsync of the photo                median %7.2f ms", Measure.median(fsyncs)))
    }

    /// Writing the same bytes, then timing fsync alone.
    private static func fsyncTime(bytes: [UInt8], in dir: URL) throws -> Double {
        let path = dir.appendingPathComponent("fsync-probe").path
        let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600)
        defer { try? FileSystem.unlink(path) }
        try file.writeAll(bytes)
        return Measure.times(runs: 1) { try? file.sync() }[0]
    }
}
