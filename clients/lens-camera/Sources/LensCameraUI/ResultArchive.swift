import C2PA
import Foundation
import LensClient
import GtkKit
import LensCrypto

/// Where the app keeps what it fetched — "Lens Camera" in the desktop's pictures and videos
/// folders — and what lensd's verifier says of each kept file, against lensd's trust anchor.
struct ResultArchive {
    static let picturesFolder = URL(fileURLWithPath: UserFolders.pictures).appendingPathComponent("Lens Camera")
    static let videosFolder = URL(fileURLWithPath: UserFolders.videos).appendingPathComponent("Lens Camera")

    let trustAnchorPEM: String

    func photoURL(_ name: String) -> URL { Self.picturesFolder.appendingPathComponent("\(name).jpg") }
    func videoURL(_ name: String) -> URL { Self.videosFolder.appendingPathComponent("\(name).mp4") }

    /// Writes the signed photo and verifies the written file.
    func keepPhoto(_ photo: Data, name: String) throws -> (file: URL, verdict: Verdict) {
        let url = photoURL(name)
        try prepareFolder(of: url)
        try photo.write(to: url, options: .atomic)
        return (url, verify(url))
    }

    /// Copies the stored video out of lensd (never through memory) and verifies the copy.
    func keepVideo(_ name: String, from camera: LensCamera, signed: Bool, reason: String?) throws -> (file: URL, verdict: Verdict) {
        let url = videoURL(name)
        try prepareFolder(of: url)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw ArchiveError(description: tr("Lens Camera could not create %@.", url.path))
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try camera.fetchResult(name, into: handle.fileDescriptor)
        return (url, signed ? verify(url) : .unsigned(reason ?? "not signed"))
    }

    /// The folder exists and the user may write to it — else a sentence saying which folder and
    /// how to fix it (lensd keeps the result meanwhile).
    private func prepareFolder(of file: URL) throws {
        let folder = file.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ArchiveError(description: tr("Lens Camera could not create the folder %@ (%@). lensd still has it: lensctl results lists it.",
                                                folder.path, error.localizedDescription))
        }
        guard FileManager.default.isWritableFile(atPath: folder.path) else {
            throw ArchiveError(description: tr("You may not write to the folder %@. Make it yours and writable (chmod u+w), or move it aside; lensd still has it: lensctl results lists it.",
                                                folder.path))
        }
    }

    func verify(_ file: URL) -> Verdict {
        do {
            let report = try Verifier(trustAnchors: try Certificate.parsePEM(trustAnchorPEM)).verify(fileAt: file.path)
            let provenance = Provenance(report)
            switch report.state {
            case .trusted: return .trusted(provenance)
            case .valid: return .valid(provenance)
            default: return .invalid("\(report.state.rawValue): \(report.failures.map { "\($0.code)" }.joined(separator: ", "))")
            }
        } catch {
            return .invalid("cannot verify: \(error)")
        }
    }
}

extension Provenance {
    /// What the manifest says, as `lensctl verify` prints it.
    init(_ report: VerificationReport) {
        signer = report.signer.map { "\($0.subject.oneLine) (issued by \($0.issuer.oneLine))" }
        captured = report.captureTime
        location = report.location.map { location in
            String(format: "%.6f, %.6f", location.latitude, location.longitude)
                + (location.accuracy.map { String(format: " ± %.0f m", $0) } ?? "")
        }
        device = report.device
    }
}

/// Why a result could not be kept, in words for the banner.
struct ArchiveError: LocalizedError, CustomStringConvertible {
    let description: String
    var errorDescription: String? { description }
}
