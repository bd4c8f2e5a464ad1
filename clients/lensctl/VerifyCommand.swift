import C2PA
import FoundationEssentials
import Glibc
import LensBus
import LensClient
import LensCrypto

/// `lensctl verify FILE [trust options] [--require-trusted] [--detailed | --crjson | --manifest-json |
/// --certs | --tree | --info] [--extract DIR] [--bus ADDRESS] [--json]`
enum VerifyCommand: Command {
    static let name = "verify"
    static let synopsis = "verify FILE            check a photo's or video's C2PA manifest and capture data"
    static let help = """
    usage: lensctl verify FILE [--trust-anchor PEM]... [--tsa-trust-anchor PEM]... [--trust-list FILE]...
                          [--tsa-trust-list FILE]... [--trust-config FILE] [--require-trusted]
                          [--detailed | --crjson | --manifest-json | --certs | --tree | --info] [--extract DIR]
                          [--bus ADDRESS] [--json]

    Verifies FILE's C2PA manifests (JPEG or MP4) with lensd's own verifier, offline: Trusted (signature intact,
    signer chains to a trust anchor or a CA on a trust list), Valid (intact, signer not trusted) or Invalid.
    Every ingredient's manifest is checked too, and CAWG identity assertions (X.509 and identity claims
    aggregation; a did:web issuer is never fetched). Prints the signer (and the entity and list that
    vouch for it), "time-stamped TIME by TSA" (a trusted RFC 3161 time-stamp: the certificate is judged at
    that time) or "not time-stamped: turns Invalid after DATE" (the certificate's expiry), "OCSP: not
    revoked as of TIME (stapled response)" or "REVOKED" when the signature carries an OCSP response (none is
    fetched), capture time, location and device.

      --trust-anchor PEM  a PEM file (or <(lensctl trust-anchor)) of roots to trust (signers and
                          time-stamp authorities); repeatable. Also trusted: the files in
                          $LENSCTL_TRUST_ANCHORS (FILE:FILE…) and ~/.config/lensctl/trust-anchors.pem
      --tsa-trust-anchor PEM  roots trusted for time-stamp authorities only; repeatable
      --trust-list FILE   a trust list (the C2PA Trust List: ETSI TS 119 602 JSON, or a PEM bundle);
                          repeatable. Also read: $LENSCTL_TRUST_LISTS (FILE:FILE…) and the .json/.pem
                          files in ~/.config/lensctl/trust-lists/. A CA withdrawn from a list before
                          the signing time does not make a signer trusted; a list past its NextUpdate
                          is used with a warning
      --tsa-trust-list FILE  a list of time-stamp authorities' CAs (the C2PA TSA Trust List); repeatable;
                          also the files in ~/.config/lensctl/trust-lists/tsa/
      --trust-config FILE c2pa-rs trust settings (c2patool's settings file, JSON or TOML): trust.trust_anchors,
                          trust.user_anchors, trust.allowed_list, trust.trust_config (extra EKUs)
      --require-trusted   exit 1 unless Trusted (without it, only Invalid exits 1)
      --detailed          print every manifest in the chain: signer, time-stamp, actions,
                          assertions, ingredients (with --json: the same list is always there)
      --crjson            print the C2PA JSON report (crJSON) instead, as c2pa-rs's Reader.crjson() writes it
      --manifest-json     print the manifest-store JSON instead, as c2pa-rs's Reader (c2patool FILE) prints it
      --certs             print the active manifest's signing certificate chain (PEM) instead
      --tree              print the manifests and their ingredients as a tree instead (as c2patool --tree)
      --info              print the manifest store's size and validation summary instead (as c2patool --info)
      --extract DIR       also write the manifest-store JSON (manifest_store.json), the store itself
                          (manifest_data.c2pa) and its thumbnails and embedded files into DIR
      --bus ADDRESS       also trust the anchor of the lensd on that bus

    exit: 0 ok · 1 Invalid, or not Trusted with --require-trusted · 2 usage · 6 no manifest · 7 unreadable
    """

    /// The views that replace the report; at most one, and not with --json or --detailed.
    private static let views = ["--crjson", "--manifest-json", "--certs", "--tree", "--info"]

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv, options: ["--trust-anchor", "--tsa-trust-anchor", "--trust-list", "--tsa-trust-list",
                                                 "--trust-config", "--extract"],
                                 switches: Set(["--require-trusted", "--detailed"] + views))
        let path = try args.positionals(1, "exactly one FILE")[0]
        let chosen = views.filter(args.has)
        guard chosen.count <= 1, chosen.isEmpty || (!args.json && !args.has("--detailed")) else {
            throw CommandFailure(.usage, "\((chosen + ["--json", "--detailed"].filter(args.has)).joined(separator: " and ")) "
                + "cannot be combined: choose one view")
        }
        var (trust, warnings) = try TrustSources().policy(args)
        if args.last("--bus") != nil { trust.anchors += try daemonAnchors(args) }
        warnings.forEach(Output.note)
        let report: VerificationReport
        do {
            report = try Verifier(trust: trust).verify(fileAt: path, mapping: true)
        } catch C2PAError.noManifest {
            throw CommandFailure(.noManifest, "\(path): no C2PA manifest")
        } catch {
            throw CommandFailure(.unreadableInput, "\(path): not a readable JPEG or MP4 (\(error))")
        }
        if let directory = args.last("--extract") { try VerifyViews.extract(report, into: directory) }
        switch chosen.first {
        case "--crjson": Output.json(CrJSON.document(report, generator: "lensctl", version: ProjectVersion.string))
        case "--manifest-json": Output.json(ManifestStoreJSON.document(report))
        case "--certs": Output.line(try VerifyViews.certificates(report))
        case "--tree": Output.line(VerifyViews.tree(report, file: path))
        case "--info": Output.line(try VerifyViews.info(report, file: path))
        default:
            if args.json {
                Output.json(VerifyJSON(file: path, report: report))
            } else {
                Output.line(HumanReport.text(file: path, report: report, detailed: args.has("--detailed")))
            }
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
