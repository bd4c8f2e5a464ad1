import C2PA
import Foundation
import LensClient
import LensCrypto

/// `lensctl verify FILE [--trust-anchor PEM]... [--require-trusted] [--bus ADDRESS] [--json]`
enum VerifyCommand: Command {
    static let name = "verify"
    static let synopsis = "verify FILE            check a photo's or video's C2PA manifest and capture data"
    static let help = """
    usage: lensctl verify FILE [--trust-anchor PEM]... [--require-trusted] [--bus ADDRESS] [--json]

    Verifies FILE's C2PA manifest (JPEG or MP4) with lensd's own verifier, offline: Trusted (signature intact,
    signer chains to a trust anchor), Valid (intact, signer not trusted) or Invalid. Prints the
    signer, certificate expiry, capture time, location and device.

      --trust-anchor PEM  a PEM file (or <(lensctl trust-anchor)) of roots to trust; repeatable.
                          Also trusted: the files in $LENSCTL_TRUST_ANCHORS (FILE:FILE…) and
                          ~/.config/lensctl/trust-anchors.pem when it exists
      --require-trusted   exit 1 unless Trusted (without it, only Invalid exits 1)
      --bus ADDRESS       also trust the anchor of the lensd on that bus

    exit: 0 ok · 1 Invalid, or not Trusted with --require-trusted · 6 no manifest · 7 unreadable
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv, options: ["--trust-anchor"], switches: ["--require-trusted"])
        let path = try args.positionals(1, "exactly one FILE")[0]
        var anchors = try TrustAnchorSources.anchors(options: args.all("--trust-anchor"))
        if args.last("--bus") != nil { anchors += try daemonAnchors(args) }
        let report: VerificationReport
        do {
            report = try Verifier(trustAnchors: anchors).verify(fileAt: path)
        } catch C2PAError.noManifest {
            throw CommandFailure(.noManifest, "\(path): no C2PA manifest")
        } catch {
            throw CommandFailure(.unreadableInput, "\(path): not a readable JPEG or MP4 (\(error))")
        }
        if args.json {
            Output.json(VerifyJSON(file: path, report: report))
        } else {
            Output.line(HumanReport.text(file: path, report: report))
        }
        let passes = args.has("--require-trusted") ? report.state == .trusted : report.state != .invalid
        return passes ? .ok : .failed
    }

    private static func daemonAnchors(_ args: Arguments) throws -> [Certificate] {
        let camera = try Connection.camera(args)
        let pem = try Connection.client { () throws(LensClientError) in try camera.trustAnchor() }
        do {
            return try Certificate.parsePEM(pem)
        } catch {
            throw CommandFailure(.failed, "lensd's trust anchor is not a PEM certificate")
        }
    }
}

/// The `--json` shape, named as c2pa-rs names the same things.
struct VerifyJSON: Encodable {
    struct Status: Encodable {
        var code: String
        var explanation: String
        var url: String?
    }

    struct Results: Encodable {
        var success: [Status]
        var informational: [Status]
        var failure: [Status]
    }

    struct SignatureInfo: Encodable {
        var issuer: String?
        var common_name: String?
        var subject: String
        var alg: String
        var cert_not_before: Date
        var cert_not_after: Date
    }

    struct Location: Encodable {
        var latitude: Double
        var longitude: Double
        var accuracy_m: Double?
    }

    var file: String
    var validation_state: String
    /// Failures, as in c2pa-rs's `validation_status`.
    var validation_status: [Status]
    var validation_results: Results
    var active_manifest: String?
    var claim_version: Int?
    var claim_generator: String?
    var signature_info: SignatureInfo?
    var when: String?
    var location: Location?
    var device: String?
    var actions: [ActionSummary]
    var metadata: JSONValue?

    init(file: String, report: VerificationReport) {
        func statuses(_ kind: ValidationStatus.Kind) -> [Status] {
            report.statuses.filter { $0.kind == kind }.map { Status(code: $0.code, explanation: $0.explanation, url: $0.url) }
        }
        self.file = file
        validation_state = report.state.rawValue
        validation_status = statuses(.failure)
        validation_results = Results(success: statuses(.success), informational: statuses(.informational),
                                     failure: statuses(.failure))
        active_manifest = report.manifestLabel
        claim_version = report.claimVersion
        claim_generator = report.claimGenerator
        signature_info = report.signer.map {
            SignatureInfo(issuer: $0.subject.organization, common_name: $0.subject.commonName,
                          subject: $0.subject.oneLine, alg: $0.algorithm,
                          cert_not_before: $0.notBefore, cert_not_after: $0.notAfter)
        }
        when = report.captureTime
        location = report.location.map { Location(latitude: $0.latitude, longitude: $0.longitude, accuracy_m: $0.accuracy) }
        device = report.device
        actions = report.actions
        metadata = report.metadata
    }
}

/// The human-readable verdict: what a newsroom editor needs at a glance.
enum HumanReport {
    static func text(file: String, report: VerificationReport) -> String {
        var lines: [String] = []
        switch report.state {
        case .trusted:
            lines.append("\(file): Trusted — signature intact, signer trusted")
        case .valid:
            lines.append("\(file): Valid — signature intact, but the signer is NOT trusted (no trust anchor matches)")
        case .invalid:
            lines.append("\(file): Invalid — do not rely on this file")
            for failure in report.failures { lines.append("  ✗ \(failure.code): \(failure.explanation)") }
        }
        if let signer = report.signer {
            lines.append("  signer:  \(signer.subject.oneLine) (issued by \(signer.issuer.oneLine))")
            lines.append("  expires: \(format(signer.notAfter)) (without a time-stamp the manifest turns Invalid after this)")
        }
        if let when = report.captureTime { lines.append("  when:    \(when)") }
        if let location = report.location {
            let accuracy = location.accuracy.map { String(format: " ± %.0f m", $0) } ?? ""
            lines.append(String(format: "  where:   %.6f, %.6f", location.latitude, location.longitude) + accuracy)
        } else {
            lines.append("  where:   no location recorded")
        }
        if let device = report.device { lines.append("  device:  \(device)") }
        if let generator = report.claimGenerator, !generator.isEmpty { lines.append("  made by: \(generator)") }
        return lines.joined(separator: "\n")
    }

    private static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }
}
