import LensTestSupport
import C2PA
import Foundation
import LensCrypto

/// Signs test JPEGs with lensd's own engine, the way the daemon will.
enum LensdSigning {
    static let generator = ClaimGeneratorInfo(name: "lensd", version: "0.1.0-test", operatingSystem: "Linux")

    static func signer(_ pki: TestPKI) throws -> KeySigner {
        try KeySigner(keyPEM: try String(contentsOf: pki.key, encoding: .utf8),
                           chainPEM: try String(contentsOf: pki.chain, encoding: .utf8))
    }

    static func metadata(location: GeoLocation?) -> CaptureMetadata {
        CaptureMetadata(captureTime: Date(timeIntervalSince1970: 1_795_953_600.25),
                        timeZone: TimeZone(identifier: "America/Sao_Paulo")!,
                        make: "Lensd Test", model: "matrix camera", digitalZoomRatio: 2, location: location)
    }

    /// The manifest the daemon writes for a capture: created action and capture metadata.
    /// `ocspResponses` are stapled into the signature (StapledSigner), as a device that fetched them does.
    static func writer(pki: TestPKI, metadata: CaptureMetadata, thumbnail: [UInt8]? = nil,
                       ocspResponses: [[UInt8]] = []) throws -> ManifestWriter {
        var assertions: [any Assertion] = [ActionsAssertion(when: metadata.captureTime, digitalSourceType: .digitalCapture),
                                           MetadataAssertion(metadata)]
        if let thumbnail { assertions.append(ThumbnailAssertion(jpeg: thumbnail)) }
        let base = try signer(pki)
        return ManifestWriter(generator: generator, assertions: assertions,
                              signer: ocspResponses.isEmpty ? base : StapledSigner(base, ocspResponses: ocspResponses))
    }

    /// Signs `input` into `output` (streaming, file to file) and returns what went into the manifest.
    @discardableResult
    static func sign(_ input: URL, into output: URL, pki: TestPKI, location: GeoLocation? = nil,
                     chunkSize: Int = 65_000, thumbnail: [UInt8]? = nil, ocspResponses: [[UInt8]] = []) throws -> CaptureMetadata {
        let metadata = metadata(location: location)
        let writer = try writer(pki: pki, metadata: metadata, thumbnail: thumbnail, ocspResponses: ocspResponses)
        try JPEGSigner(writer: writer, chunkSize: chunkSize).sign(inputPath: input.path, outputPath: output.path)
        return metadata
    }

    /// Signs an MP4 file to file: into a large enough free box after ftyp, else by inserting the box.
    static func signMP4(_ input: URL, into output: URL, pki: TestPKI, location: GeoLocation? = nil) throws {
        let writer = try writer(pki: pki, metadata: metadata(location: location))
        try MP4Signer(writer: writer).sign(inputPath: input.path, outputPath: output.path)
    }

    /// Signs an MP4 in place into its reserved free box, as the recorder does at stop.
    static func signMP4InPlace(_ file: URL, reserve: Range<Int>, pki: TestPKI, location: GeoLocation? = nil) throws {
        let writer = try writer(pki: pki, metadata: metadata(location: location))
        try MP4Signer(writer: writer).signInPlace(path: file.path, reserve: reserve, hash: try BMFFHasher.hash(fileAt: file.path))
    }

    /// lensd's verifier on a JPEG or MP4 file, judging validity at `now`.
    static func verify(_ file: URL, anchors: [URL], now: Date = Date()) throws -> VerificationReport {
        let certificates = try anchors.flatMap { try Certificate.parsePEM(try String(contentsOf: $0, encoding: .utf8)) }
        return try Verifier(trustAnchors: certificates, now: now).verify(fileAt: file.path)
    }
}
