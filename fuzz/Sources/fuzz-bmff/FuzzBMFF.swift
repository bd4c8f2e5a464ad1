import C2PA
import Foundation

/// The MP4 verification path on an arbitrary file: root boxes → C2PA uuid box → manifest store →
/// claim → signature → c2pa.hash.bmff.v3 exclusions and hash; and the same bytes read as the
/// CBOR of a bmff hash assertion. The verifier reads files, so each input goes through tmpfs.
private let verifier = Verifier(now: Date(timeIntervalSince1970: 1_800_000_000))
private let inputPath = (FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())
    + "/fuzz-bmff-\(getpid()).mp4"
private let cleanUp: Void = { atexit { unlink(inputPath) } }()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    cleanUp
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let cbor = try? CBORDecoder.decode(bytes), let assertion = try? BMFFHashAssertion(cbor: cbor, claimAlgorithm: .sha256) {
        _ = try? assertion.content()
    }
    guard FileManager.default.createFile(atPath: inputPath, contents: Data(bytes)) else { return 0 }
    if let report = try? verifier.verify(fileAt: inputPath) {
        _ = (report.state, report.statuses.count)
    }
    _ = try? BMFFHasher.hash(fileAt: inputPath)
    opensslThreadStop()  // frees OpenSSL's per-thread error-queue buffers: see fuzz-certificate
    return 0
}

@_silgen_name("OPENSSL_thread_stop")
private func opensslThreadStop()
