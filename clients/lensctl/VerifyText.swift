import C2PA
import FoundationEssentials
import LensSystem

/// The human-readable verdict: what a newsroom editor needs at a glance, and with `--detailed`
/// every manifest in the chain, as c2patool --detailed users expect to find it.
enum HumanReport {
    static func text(file: String, report: VerificationReport, detailed: Bool = false) -> String {
        var lines: [String] = []
        switch report.state {
        case .trusted:
            lines.append("\(file): Trusted — signature intact, signer trusted")
        case .valid where report.statuses.contains { $0.code == StatusCode.signingCredentialTrusted }:
            lines.append("\(file): Valid — signature intact and signer trusted, but an ingredient's signer is NOT trusted now")
            for failure in report.ingredientFailures { lines.append("  ✗ ingredient: \(failure.code): \(failure.explanation)") }
        case .valid:
            lines.append("\(file): Valid — signature intact, but the signer is NOT trusted (no trust anchor matches)")
        case .invalid:
            lines.append("\(file): Invalid — do not rely on this file")
            for failure in report.failures { lines.append("  ✗ \(failure.code): \(failure.explanation)") }
            for failure in report.ingredientFailures { lines.append("  ✗ ingredient: \(failure.code): \(failure.explanation)") }
        }
        if let signer = report.signer {
            lines.append("  signer:  \(signer.subject.oneLine) (issued by \(signer.issuer.oneLine))")
            if let listing = signer.trustListing { lines.append("  listed:  " + listingLine(listing)) }
            lines.append("  time:    " + timeStampLine(signer))
            if let revocation = signer.revocation { lines.append("  OCSP:    " + revocationLine(revocation)) }
        }
        if let when = report.captureTime { lines.append("  when:    \(when)") }
        if let location = report.location {
            let accuracy = location.accuracy.map { String(cFormat: " ± %.0f m", $0) } ?? ""
            lines.append(String(cFormat: "  where:   %.6f, %.6f", location.latitude, location.longitude) + accuracy)
        } else {
            lines.append("  where:   no location recorded")
        }
        if let device = report.device { lines.append("  device:  \(device)") }
        if let generator = report.claimGenerator, !generator.isEmpty { lines.append("  made by: \(generator)") }
        if detailed {
            for (index, manifest) in report.manifests.enumerated() {
                lines += manifestLines(manifest, role: index == 0 ? "active manifest" : "ingredient manifest")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// What the manifest's validity rests on: a trusted time-stamp, or the certificate's expiry.
    static func timeStampLine(_ signer: SignerSummary) -> String {
        guard let stamp = signer.timeStamp else {
            return "not time-stamped: turns Invalid after \(Output.iso8601(signer.notAfter))"
        }
        return "time-stamped \(Output.iso8601(stamp)) by \(signer.timeStampAuthority?.oneLine ?? "an unnamed TSA")"
    }

    /// The entity and the list that vouch for the signer's CA, or that withdrew it.
    static func listingLine(_ listing: TrustListing) -> String {
        let since = listing.since.map { " since \(Output.iso8601($0))" } ?? ""
        return listing.isTrusted
            ? "\(listing.entity) on \(listing.list)"
            : "\(listing.entity) on \(listing.list): \(listing.status.uppercased())\(since), before the signing time"
    }

    /// What the OCSP response stapled to the signature says about the signer's certificate.
    static func revocationLine(_ revocation: Revocation) -> String {
        let produced = Output.iso8601(revocation.producedAt)
        var revokedAt = ""
        if case .revoked(let at, _)? = revocation.verdict { revokedAt = " at \(Output.iso8601(at))" }
        switch revocation.finding {
        case .notRevoked: return "not revoked as of \(produced) (stapled response)"
        case .revoked: return "REVOKED\(revokedAt) (stapled response of \(produced))"
        case .silent: return "revoked\(revokedAt), after the time-stamped signing time (stapled response of \(produced))"
        }
    }

    private static func manifestLines(_ manifest: ManifestSummary, role: String) -> [String] {
        var lines = ["", "\(role)\(manifest.isUpdate ? " (update)" : ""): \(manifest.label)"]
        if let generator = manifest.claimGenerator, !generator.isEmpty { lines.append("  claim generator: \(generator)") }
        if let version = manifest.claimVersion { lines.append("  claim version:   \(version)") }
        if let title = manifest.title { lines.append("  title:           \(title)") }
        if let signer = manifest.signer {
            lines.append("  signed by:       \(signer.subject.oneLine) (\(signer.algorithm), issued by \(signer.issuer.oneLine))")
            lines.append("  certificate:     \(Output.iso8601(signer.notBefore)) – \(Output.iso8601(signer.notAfter))")
            lines.append("  time:            " + timeStampLine(signer))
            if let revocation = signer.revocation { lines.append("  OCSP:            " + revocationLine(revocation)) }
        }
        for action in manifest.actions {
            let details = [action.when, action.digitalSourceType].compactMap { $0 }
            lines.append("  action:          \(action.action)" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))"))
        }
        for label in manifest.assertions { lines.append("  assertion:       \(label)") }
        for identity in manifest.identities { lines.append("  identity:        \(identity)") }
        for ingredient in manifest.ingredients {
            let what = [ingredient.relationship, ingredient.manifest.map { "manifest \($0)" } ?? "no manifest"].compactMap { $0 }
            lines.append("  ingredient:      \(ingredient.title ?? "untitled") (\(what.joined(separator: ", ")))")
        }
        return lines
    }
}
