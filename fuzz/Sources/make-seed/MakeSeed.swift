import C2PA
import Foundation
import LensCrypto

/// make-seed IN OUT --key KEY.pk8 --chain CHAIN.pem [--thumbnail] [--ocsp RESPONSE.der]
/// Signs the JPEG or MP4 (by IN's extension) IN into OUT with lensd's engine (as the daemon does),
/// for fuzz/make-seeds.sh. The thumbnail, when asked for, is IN itself (JPEG seeds are tiny);
/// `--ocsp` staples that OCSP response to the signature (StapledSigner).
@main
struct MakeSeed {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        func option(_ name: String) -> String? {
            guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
            defer { arguments.removeSubrange(i...(i + 1)) }
            return arguments[i + 1]
        }
        let thumbnail = arguments.contains("--thumbnail")
        arguments.removeAll { $0 == "--thumbnail" }
        let ocsp = option("--ocsp")
        guard let key = option("--key"), let chain = option("--chain"), arguments.count == 2 else {
            FileHandle.standardError.write(Data("usage: make-seed IN OUT --key KEY.pk8 --chain CHAIN.pem [--thumbnail] [--ocsp RESPONSE.der]\n".utf8))
            exit(2)
        }
        do {
            let input = try Data(contentsOf: URL(fileURLWithPath: arguments[0]))
            let base = try KeySigner(keyPEM: try String(contentsOfFile: key, encoding: .utf8),
                                            chainPEM: try String(contentsOfFile: chain, encoding: .utf8))
            let metadata = CaptureMetadata(
                captureTime: Date(timeIntervalSince1970: 1_795_953_600.25),
                timeZone: TimeZone(identifier: "UTC")!, make: "Lensd Fuzz", model: "seed camera",
                digitalZoomRatio: 2,
                location: GeoLocation(latitude: 52.52, longitude: 13.405, altitude: 34.5, horizontalError: 5,
                                      fixTime: Date(timeIntervalSince1970: 1_795_953_599)))
            let signer: any ClaimSigner = try ocsp.map { StapledSigner(base, ocspResponses: [Array(try Data(contentsOf: URL(fileURLWithPath: $0)))]) }
                ?? base
            var assertions: [any Assertion] = [
                ActionsAssertion(when: metadata.captureTime, digitalSourceType: .digitalCapture),
                MetadataAssertion(metadata),
            ]
            if thumbnail { assertions.append(ThumbnailAssertion(jpeg: Array(input))) }
            let writer = ManifestWriter(
                generator: ClaimGeneratorInfo(name: "lensd", version: "fuzz-seed", operatingSystem: "Linux"),
                assertions: assertions, signer: signer)
            if arguments[0].hasSuffix(".mp4") {
                try MP4Signer(writer: writer).sign(inputPath: arguments[0], outputPath: arguments[1])
            } else {
                try Data(try JPEGSigner(writer: writer).sign(Array(input))).write(to: URL(fileURLWithPath: arguments[1]))
            }
            print(arguments[1])
        } catch {
            FileHandle.standardError.write(Data("make-seed: \(error)\n".utf8))
            exit(1)
        }
    }
}
