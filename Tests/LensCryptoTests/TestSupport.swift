import Foundation
import LensCrypto
import XCTest

/// Runs the `openssl` command-line tool, the independent oracle these tests check against.
enum OpenSSLCLI {
    struct Result {
        let status: Int32
        let output: [UInt8]
        let errorText: String

        var text: String { String(decoding: output, as: UTF8.self) }
    }

    static func run(_ arguments: [String], input: [UInt8] = []) throws -> Result {
        let candidates = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
        guard let executable = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("openssl command-line tool not found")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let standardInput = Pipe(), standardOutput = Pipe(), standardError = Pipe()
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = standardError
        try process.run()
        standardInput.fileHandleForWriting.write(Data(input))
        try standardInput.fileHandleForWriting.close()
        let output = standardOutput.fileHandleForReading.readDataToEndOfFile()
        let errorOutput = standardError.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: Array(output), errorText: String(decoding: errorOutput, as: UTF8.self))
    }

    /// Runs and fails the test unless the tool exits 0.
    static func succeed(_ arguments: [String], input: [UInt8] = [], file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        let result = try run(arguments, input: input)
        XCTAssertEqual(result.status, 0, "openssl \(arguments.joined(separator: " ")): \(result.errorText)", file: file, line: line)
        return result
    }
}

/// A scratch directory removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("LensCryptoTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` to `name` and returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}

/// root (self-signed) → intermediate → C2PA signer leaf, issued through the public API.
struct TestChain {
    let rootKey: PrivateKey
    let intermediateKey: PrivateKey
    let leafKey: PrivateKey
    let root: Certificate
    let intermediate: Certificate
    let leaf: Certificate

    static let rootName = DistinguishedName(country: "US", organization: "Lensd Test", commonName: "Lensd Test Root")
    static let intermediateName = DistinguishedName(country: "US", organization: "Lensd Test", organizationalUnit: "Devices", commonName: "Lensd Device CA")
    static let leafName = DistinguishedName(country: "US", organization: "Lensd Test", organizationalUnit: "Devices", commonName: "cam 1")

    static func make(
        rootCurve: EllipticCurve = .p384,
        intermediateCurve: EllipticCurve = .p256,
        leafCurve: EllipticCurve = .p256,
        leafNotBefore: Date = Date(timeIntervalSinceNow: -3600),
        leafNotAfter: Date = Date(timeIntervalSinceNow: 86400 * 30)
    ) throws -> TestChain {
        let caNotBefore = Date(timeIntervalSinceNow: -86400 * 10)
        let caNotAfter = Date(timeIntervalSinceNow: 86400 * 3650)
        let rootKey = try PrivateKey.generate(rootCurve)
        let root = try CertificateIssuer.issue(
            subject: rootName, subjectKey: rootKey.publicKey, profile: .rootCA,
            notBefore: caNotBefore, notAfter: caNotAfter, issuer: nil, selfSigningKey: rootKey)
        let intermediateKey = try PrivateKey.generate(intermediateCurve)
        let intermediate = try CertificateIssuer.issue(
            subject: intermediateName, subjectKey: intermediateKey.publicKey, profile: .intermediateCA(pathLength: 0),
            notBefore: caNotBefore, notAfter: caNotAfter, issuer: (root, rootKey))
        let leafKey = try PrivateKey.generate(leafCurve)
        let leaf = try CertificateIssuer.issue(
            subject: leafName, subjectKey: leafKey.publicKey, profile: .c2paSigner,
            notBefore: leafNotBefore, notAfter: leafNotAfter, issuer: (intermediate, intermediateKey))
        return TestChain(
            rootKey: rootKey, intermediateKey: intermediateKey, leafKey: leafKey,
            root: root, intermediate: intermediate, leaf: leaf)
    }
}

extension Array where Element == UInt8 {
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self = bytes
    }

    var hex: String {
        map { String(format: "%02x", $0) }.joined()
    }

    static func random(count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max) }
    }
}

/// Minimal DER ECDSA-Sig-Value codec, so the CLI's signatures can be compared with our P1363 ones
/// without going through the code under test.
enum ECDSASignatureDER {
    static func encode(raw: [UInt8]) -> [UInt8] {
        let half = raw.count / 2
        func integer(_ magnitude: ArraySlice<UInt8>) -> [UInt8] {
            var bytes = Array(magnitude.drop(while: { $0 == 0 }))
            if bytes.isEmpty || bytes[0] & 0x80 != 0 {
                bytes.insert(0, at: 0)
            }
            return [0x02] + length(bytes.count) + bytes
        }
        let body = integer(raw[..<half]) + integer(raw[half...])
        return [0x30] + length(body.count) + body
    }

    static func decode(_ der: [UInt8], coordinateSize: Int) -> [UInt8]? {
        var index = 0
        func readLength() -> Int? {
            guard index < der.count else { return nil }
            let first = Int(der[index])
            index += 1
            guard first & 0x80 != 0 else { return first }
            var value = 0
            for _ in 0..<(first & 0x7F) {
                guard index < der.count else { return nil }
                value = value << 8 | Int(der[index])
                index += 1
            }
            return value
        }
        func readInteger() -> [UInt8]? {
            guard index < der.count, der[index] == 0x02 else { return nil }
            index += 1
            guard let count = readLength(), index + count <= der.count else { return nil }
            let magnitude = Array(der[index..<index + count].drop(while: { $0 == 0 }))
            index += count
            guard magnitude.count <= coordinateSize else { return nil }
            return [UInt8](repeating: 0, count: coordinateSize - magnitude.count) + magnitude
        }
        guard der.first == 0x30 else { return nil }
        index = 1
        guard readLength() != nil, let r = readInteger(), let s = readInteger() else { return nil }
        return r + s
    }

    private static func length(_ count: Int) -> [UInt8] {
        count < 0x80 ? [UInt8(count)] : [0x81, UInt8(count)]
    }
}

extension EllipticCurve {
    /// The name `openssl ecparam -name` knows it by.
    var openSSLName: String {
        switch self {
        case .p256: "prime256v1"
        case .p384: "secp384r1"
        case .p521: "secp521r1"
        }
    }
}
