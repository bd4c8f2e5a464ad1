// The reference implementation (c2pa-python 0.38.1 = c2pa-rs 0.91.3) as a test oracle:
// ReferenceValidator runs Tests/oracle/c2pa_verdict.py, ReferenceSigner runs
// Tests/oracle/sign_reference.py. Needs <repo>/.venv (scripts/setup). Foundation + XCTest only.
import Foundation
import XCTest

/// The JSON object c2pa_verdict.py prints, plus its exit status.
public struct ReferenceVerdict: Decodable {
    public struct Failure: Decodable, Equatable {
        public let code: String
        public let explanation: String?
        public let url: String?
    }

    public struct Action: Decodable, Equatable {
        public let action: String?
        public let when: String?
        public let digitalSourceType: String?
    }

    public struct SignatureInfo: Decodable {
        public let alg: String?
        public let issuer: String?
        public let commonName: String?
        public let certSerialNumber: String?
        public let time: String?
        enum CodingKeys: String, CodingKey {
            case alg, issuer, time
            case commonName = "common_name", certSerialNumber = "cert_serial_number"
        }
    }

    /// "Trusted", "Valid", "Invalid"; nil when there is no manifest or c2pa-rs failed.
    public let validationState: String?
    public let success: [String]
    public let informational: [String]
    public let failure: [Failure]
    /// Failure codes of every ingredient delta (validation_results.ingredientDeltas).
    public let ingredientFailures: [String]
    public let activeManifest: String?
    public let claimVersion: Int?
    public let claimGeneratorInfo: OracleJSON?
    public let signatureInfo: SignatureInfo?
    /// Labels Reader.json() lists (it hides the hard binding and the thumbnail).
    public let assertionLabels: [String]
    /// Every label the claim references (created + gathered, or v1 assertions).
    public let claimAssertions: [String]
    /// label → data of every `*.metadata` assertion.
    public let metadata: [String: OracleJSON]
    public let actions: [Action]
    public let thumbnail: String?
    /// label → map of the hard-binding assertion(s); byte strings are lower-case hex.
    public let hardBinding: [String: OracleJSON]
    public let error: String?
    /// c2pa_verdict.py's exit: 0 validates, 1 does not, 2 no manifest, 3 error.
    public var exitStatus: Int32 = -1

    public var failureCodes: [String] { failure.map(\.code) }
    public var isTrusted: Bool { validationState == "Trusted" }
    public var validates: Bool { validationState == "Trusted" || validationState == "Valid" }

    public enum CodingKeys: String, CodingKey {
        case validationState = "validation_state", success, informational, failure
        case ingredientFailures = "ingredient_failures"
        case activeManifest = "active_manifest", claimVersion = "claim_version"
        case claimGeneratorInfo = "claim_generator_info", signatureInfo = "signature_info"
        case assertionLabels = "assertion_labels", claimAssertions = "claim_assertions"
        case metadata, actions, thumbnail, hardBinding = "hard_binding", error
    }
}

public enum ReferenceValidator {
    /// Validates `file` with c2pa-rs, trusting the PEM files in `anchors` (none: nothing is
    /// trusted). Throws only when the oracle itself breaks, not when the file is bad.
    /// `clockOffset` (faketime's "+3d" form) runs the reference with its clock moved.
    public static func verdict(file: URL, anchors: [URL] = [], requireTrusted: Bool = false,
                               clockOffset: String? = nil) throws -> ReferenceVerdict
    {
        var arguments = [file.path]
        for a in anchors { arguments += ["--trust-anchor", a.path] }
        if requireTrusted { arguments.append("--require-trusted") }
        let status: Int32, json: Data
        if let clockOffset {
            // A clock of its own: a run under faketime.
            let r = try runProcess(["faketime", "-f", clockOffset, try TestTools.python(),
                                    TestTools.oracleDir.appendingPathComponent("c2pa_verdict.py").path] + arguments)
            guard (0...3).contains(r.status) else {
                throw TestToolError("c2pa_verdict.py exited \(r.status): " + String(decoding: r.stderr, as: UTF8.self))
            }
            (status, json) = (r.status, r.stdout)
        } else {
            (status, json) = try OracleServer.verdicts.ask(arguments)
        }
        do {
            var v = try JSONDecoder().decode(ReferenceVerdict.self, from: json)
            v.exitStatus = status
            return v
        } catch {
            throw TestToolError("cannot decode c2pa_verdict.py output (\(error)): " + String(decoding: json, as: UTF8.self))
        }
    }

    /// Asserts that c2pa-rs rates `file` Trusted with `anchors`; returns the verdict.
    @discardableResult
    public static func assertTrusted(_ file: URL, anchors: [URL], file callerFile: StaticString = #filePath,
                              line: UInt = #line) throws -> ReferenceVerdict {
        let v = try verdict(file: file, anchors: anchors, requireTrusted: true)
        XCTAssertEqual(v.validationState, "Trusted",
                       "c2pa-rs: \(v.failure.map { "\($0.code): \($0.explanation ?? "")" }) \(v.error ?? "")",
                       file: callerFile, line: line)
        return v
    }
}

public enum ReferenceSigner {
    public enum Alg: String { case es256, es384, es512, ps256, ps384, ps512, ed25519 }

    /// Signs `input` into `output` with c2pa-python's Builder: c2pa.actions.v2 (c2pa.created,
    /// digitalCapture), c2pa.metadata (exif:GPS*), c2pa.hash.data; thumbnail only if asked.
    /// `alg` defaults to the PKI's key (P-256 → es256, P-384 → es384, P-521 → es512, RSA → ps256,
    /// Ed25519 → ed25519). `tsaURL` stamps the signature; `parent` makes the file an edit of that
    /// signed file (its manifest nested as the parentOf ingredient), `update` an update manifest.
    @discardableResult
    public static func sign(input: URL, output: URL, pki: TestPKI, alg: Alg? = nil,
                     thumbnail: Bool = false, claimVersion: Int = 2, tsaURL: String? = nil,
                     parent: URL? = nil, update: Bool = false) throws -> URL {
        let defaults: [TestPKI.Curve: Alg] = [.p256: .es256, .p384: .es384, .p521: .es512, .rsa: .ps256,
                                              .rsaPSS: .ps256, .ed25519: .ed25519]
        let a = alg ?? defaults[pki.curve]!
        var args = [input.path, output.path, "--key", pki.key.path, "--chain", pki.chain.path,
                    "--alg", a.rawValue, "--claim-version", String(claimVersion)]
        if thumbnail { args.append("--thumbnail") }
        if let tsaURL { args += ["--tsa-url", tsaURL] }
        if let parent { args += ["--parent", parent.path] }
        if update { args.append("--update") }
        try TestTools.runOracle("sign_reference.py", args)
        return output
    }
}

/// Any JSON value, for the free-form parts of the verdict (metadata, hard binding).
public enum OracleJSON: Decodable, Equatable {
    case null, bool(Bool), number(Double), string(String)
    case array([OracleJSON]), object([String: OracleJSON])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([OracleJSON].self) { self = .array(a) }
        else { self = .object(try c.decode([String: OracleJSON].self)) }
    }

    public subscript(key: String) -> OracleJSON? {
        if case .object(let o) = self { return o[key] } else { return nil }
    }
    public subscript(index: Int) -> OracleJSON? {
        if case .array(let a) = self, a.indices.contains(index) { return a[index] } else { return nil }
    }
    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var int: Int? { if case .number(let n) = self { return Int(exactly: n) } else { return nil } }
}
