import C2PA
import Foundation
import LensCore
import LensCrypto
import LensNetwork

/// `sign-jpeg` / `sign-mp4`: lensd's file-to-file signing vs. a plain SHA-256 of the same file
/// (the floor) vs. c2pa-python's Builder (thumbnail off, timed inside its own process), on a tmpfs copy.
struct SignFileBench {
    enum Format: String {
        case jpeg, mp4

        var fileExtension: String { self == .jpeg ? "jpg" : "mp4" }

        func sign(writer: ManifestWriter, input: String, output: String) throws {
            switch self {
            case .jpeg: try JPEGSigner(writer: writer).sign(inputPath: input, outputPath: output)
            case .mp4: try MP4Signer(writer: writer).sign(inputPath: input, outputPath: output)
            }
        }
    }

    var format: Format
    var key: String
    var chain: String
    var anchor: String?
    var pkcs11Module: String?
    var pkcs11PinFile: String?
    var runs = 11
    var file: String
    /// `--tsa`: each signature is also time-stamped, as lensd's tsa-url does, and timed with the request.
    var timeStamping: TimeStamping?

    init(_ format: Format, _ argv: [String]) throws {
        self.format = format
        var key: String?, chain: String?, anchor: String?, file: String?, tsa: String?, tsaAnchor: String?
        var rest = argv[...]
        while let arg = rest.popFirst() {
            switch arg {
            case "--key": key = rest.popFirst()
            case "--chain": chain = rest.popFirst()
            case "--trust-anchor": anchor = rest.popFirst()
            case "--pkcs11-module": pkcs11Module = rest.popFirst()
            case "--pkcs11-pin-file": pkcs11PinFile = rest.popFirst()
            case "--runs": runs = Int(rest.popFirst() ?? "") ?? 0
            case "--tsa": tsa = rest.popFirst()
            case "--tsa-trust-anchor": tsaAnchor = rest.popFirst()
            default: file = arg
            }
        }
        guard let key, let chain, let file, runs > 0 else { throw BenchError("usage: \(usage)") }
        (self.key, self.chain, self.anchor, self.file) = (key, chain, anchor, file)
        if let tsa {
            guard let tsaAnchor else { throw BenchError("--tsa needs --tsa-trust-anchor, the TSA's root") }
            let roots = try Certificate.parsePEM(try String(contentsOfFile: tsaAnchor, encoding: .utf8))
            timeStamping = TimeStamping(client: TSAClient(urls: [tsa], anchors: roots), policy: .required)
        }
    }

    func run() throws {
        let dir = try Measure.tmpfsDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("input.\(format.fileExtension)").path
        let output = dir.appendingPathComponent("signed.\(format.fileExtension)").path
        try FileManager.default.copyItem(atPath: file, toPath: input)
        let size = try FileManager.default.attributesOfItem(atPath: input)[.size] as? Int ?? 0
        let signingKey = try BenchKey.open(key, module: pkcs11Module, pinFile: pkcs11PinFile)
        let signer = try KeySigner(key: signingKey, chain: try Certificate.parsePEM(try String(contentsOfFile: chain, encoding: .utf8)))
        // The key's own cost, where it lives: one ES256 signature over a claim-sized message.
        let claim = [UInt8](repeating: 0xA5, count: 600)
        let keyOnly = try Measure.times(runs: runs) { _ = try signer.sign(claim) }

        // Each run writes a new file, as lensd names each result anew: freeing the last run's output
        // (which replacing it would do) is not part of signing.
        let removeOutput = { _ = try? FileManager.default.removeItem(atPath: output) }
        let lensd = try Measure.times(runs: runs, prepare: removeOutput) {
            let writer = ManifestWriter(generator: ClaimGeneratorInfo(name: "lens-bench", version: "0"),
                                        assertions: Self.assertions(), signer: signer)
            try format.sign(writer: writer, input: input, output: output)
        }
        let sha256 = try Measure.times(runs: runs) { _ = try Self.hashFile(input) }
        // A photo as lensd signs it: the JPEG is in memory, and so is the result.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
        let inMemory = try format == .jpeg ? Measure.times(runs: runs) {
            let writer = ManifestWriter(generator: ClaimGeneratorInfo(name: "lens-bench", version: "0"),
                                        assertions: Self.assertions(), signer: signer)
            _ = try JPEGSigner(writer: writer).sign(bytes)
        } : []
        // The same with the Exif and XMP segments lensd writes into every photo.
        let withMetadata = try format == .jpeg ? Measure.times(runs: runs) {
            let metadata = Self.metadata()
            let writer = ManifestWriter(generator: ClaimGeneratorInfo(name: "lens-bench", version: "0"),
                                        assertions: Self.assertions(metadata), signer: signer)
            _ = try JPEGSigner(writer: writer, metadata: metadata).sign(bytes)
        } : []
        let memoryHash = try format == .jpeg ? Measure.times(runs: runs) { _ = Digest.hash(bytes) } : []
        // With a TSA: what lensd does for a photo (in memory) or a video (file to file), request included.
        let stamped = try timeStamping.map { timeStamping in
            try Measure.times(runs: runs) {
                let writer = ManifestWriter(generator: ClaimGeneratorInfo(name: "lens-bench", version: "0"),
                                            assertions: Self.assertions(), signer: signer, timeStamper: timeStamping.stamper(for: signer))
                if format == .jpeg { _ = try JPEGSigner(writer: writer).sign(bytes) } else { try format.sign(writer: writer, input: input, output: output) }
            }
        }
        let reference = try !BenchKey.isFile(key) ? nil : referenceMedian(input: input, output: dir.appendingPathComponent("reference.\(format.fileExtension)").path)
        let verdict = try checkTrusted(output, signer: signer)

        let lensdMedian = Measure.median(lensd), hashMedian = Measure.median(sha256)
        print("input: \(file) (\(size) bytes), \(runs) runs each, tmpfs copy; key \(key)")
        print(String(format: "key: one signature    median %8.2f ms", Measure.median(keyOnly)))
        print("lensd sign-\(format.rawValue)".padding(toLength: 22, withPad: " ", startingAt: 0)
              + String(format: "median %8.2f ms", lensdMedian))
        print(String(format: "sha256 (floor)        median %8.2f ms", hashMedian))
        if !inMemory.isEmpty {
            let signed = Measure.median(inMemory), hashed = Measure.median(memoryHash)
            print(String(format: "lensd sign in memory  median %8.2f ms  (a photo, as lensd signs it)", signed))
            print(String(format: "sha256 in memory      median %8.2f ms  ratio_in_memory=%.2f", hashed, signed / hashed))
            print(String(format: "  + Exif and XMP      median %8.2f ms  (the photo's APP1 segments too, as lensd writes them)",
                         Measure.median(withMetadata)))
        }
        if let stamped {
            let without = format == .jpeg ? Measure.median(inMemory) : lensdMedian
            print(String(format: "lensd sign + TSA      median %8.2f ms  (%@, the RFC 3161 request included: +%.2f ms)",
                         Measure.median(stamped), format == .jpeg ? "in memory" : "file to file", Measure.median(stamped) - without))
        }
        let unavailable = BenchKey.isFile(key) ? "unavailable (run scripts/setup)" : "n/a (it signs only with key files)"
        print(reference.map { String(format: "c2pa-python Builder   median %8.2f ms", $0) } ?? "c2pa-python Builder   \(unavailable)")
        print("lensd output: \(verdict)")
        let vsReference = reference.map { String(format: "%.2f", lensdMedian / $0) } ?? "n/a"
        print(String(format: "ratio_vs_sha256=%.2f ratio_vs_c2pa_python=%@", lensdMedian / hashMedian, vsReference))
    }

    static func assertions(_ metadata: CaptureMetadata = metadata()) -> [any Assertion] {
        [ActionsAssertion(when: metadata.captureTime, digitalSourceType: .digitalCapture), MetadataAssertion(metadata)]
    }

    /// A photo's metadata with a 3D fix, so its Exif has every IFD.
    static func metadata() -> CaptureMetadata {
        let now = Date()
        return CaptureMetadata(captureTime: now, make: "lensd", model: "lens-bench",
                               location: GeoLocation(latitude: -33.0456, longitude: -70.0612, altitude: 12,
                                                     horizontalError: 4.5, fixTime: now),
                               software: "lens-bench 0")
    }

    static func hashFile(_ path: String) throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let hasher = Hasher(.sha256)
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            chunk.withUnsafeBytes { hasher.update($0) }
        }
        return hasher.finalize()
    }

    /// c2pa-python times itself, so its interpreter start-up stays out of the figure.
    private func referenceMedian(input: String, output: String) throws -> Double? {
        let root = Measure.repositoryRoot
        let python = root.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else { return nil }
        let script = root.appendingPathComponent("scripts/bench/c2pa_python_sign.py").path
        let result = try Measure.run([python, script, input, output, "--key", key, "--chain", chain, "--runs", String(runs)])
        guard result.status == 0, let median = Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("c2pa-python benchmark failed: \(result.output)")
        }
        return median
    }

    /// The benchmark's own output must verify Trusted, or its figure means nothing.
    private func checkTrusted(_ path: String, signer: KeySigner) throws -> String {
        let anchors = try anchor.map { try Certificate.parsePEM(try String(contentsOfFile: $0, encoding: .utf8)) }
            ?? [signer.certificateChain.last!]
        let report = try Verifier(trustAnchors: anchors).verify(fileAt: path)
        guard report.state == .trusted else {
            throw BenchError("lensd's output is \(report.state.rawValue): \(report.failures.map(\.code))")
        }
        return "Trusted (lensd verifier)"
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
