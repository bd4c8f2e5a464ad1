import C2PA
import Foundation
import LensClient
import LensCrypto

/// `lensctl verify FILE [--trust-anchor PEM]... [--require-trusted] [--detailed] [--bus ADDRESS] [--json]`
enum VerifyCommand: Command {
    static let name = "verify"
    static let synopsis = "verify FILE            check a photo's or video's C2PA manifest and capture data"
    static let help = """
    usage: lensctl verify FILE [--trust-anchor PEM]... [--tsa-trust-anchor PEM]... [--require-trusted] [--detailed]
                          [--bus ADDRESS] [--json]

    Verifies FILE's C2PA manifests (JPEG or MP4) with lensd's own verifier, offline: Trusted (signature intact,
    signer chains to a trust anchor), Valid (intact, signer not trusted) or Invalid. Every ingredient's
    manifest is checked too. Prints the signer, "time-stamped TIME by TSA" (a trusted RFC 3161
    time-stamp: the certificate is judged at that time) or "not time-stamped: turns Invalid after
    DATE" (the certificate's expiry), "OCSP: not revoked as of TIME (stapled response)" or "REVOKED"
    when the signature carries an OCSP response (none is fetched), capture time, location and device.

      --trust-anchor PEM  a PEM file (or <(lensctl trust-anchor)) of roots to trust (signers and
                          time-stamp authorities); repeatable. Also trusted: the files in
                          $LENSCTL_TRUST_ANCHORS (FILE:FILE…) and ~/.config/lensctl/trust-anchors.pem
      --tsa-trust-anchor PEM  roots trusted for time-stamp authorities only; repeatable
      --require-trusted   exit 1 unless Trusted (without it, only Invalid exits 1)
      --detailed          print every manifest in the chain: signer, time-stamp, actions,
                          assertions, ingredients (with --json: the same list is always there)
      --bus ADDRESS       also trust the anchor of the lensd on that bus

    exit: 0 ok · 1 Invalid, or not Trusted with --require-trusted · 6 no manifest · 7 unreadable
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv, options: ["--trust-anchor", "--tsa-trust-anchor"], switches: ["--require-trusted", "--detailed"])
        let path = try args.positionals(1, "exactly one FILE")[0]
        var anchors = try TrustAnchorSources.anchors(options: args.all("--trust-anchor"))
        if args.last("--bus") != nil { anchors += try daemonAnchors(args) }
        let report: VerificationReport
        do {
            let timeStampAnchors = try TrustAnchorSources.read(args.all("--tsa-trust-anchor"))
            report = try Verifier(trustAnchors: anchors, timeStampAnchors: timeStampAnchors).verify(fileAt: path, mapping: true)
        } catch C2PAError.noManifest {
            throw CommandFailure(.noManifest, "\(path): no C2PA manifest")
        } catch {
            throw CommandFailure(.unreadableInput, "\(path): not a readable JPEG or MP4 (\(error))")
        }
        if args.json {
            Output.json(VerifyJSON(file: path, report: report))
        } else {
            Output.line(HumanReport.text(file: path, report: report, detailed: args.has("--detailed")))
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
