#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import LensCrypto

/// Verifies an asset's manifest store as c2pa-rs does: the active manifest (signature, signing
/// credential at a trusted time-stamp's time or now, trust, every hashed URI, the hard binding),
/// then every ingredient's manifest, with the spec's status codes.
public struct Verifier: Sendable {
    public var trust: TrustPolicy
    public var now: Date

    public init(trust: TrustPolicy, now: Date = Date()) {
        self.trust = trust
        self.now = now
    }

    /// `timeStampAnchors`: roots trusted for time-stamp authorities only (`--tsa-trust-anchor`).
    public init(trustAnchors: [Certificate] = [], timeStampAnchors: [Certificate] = [], now: Date = Date()) {
        self.init(trust: TrustPolicy(anchors: trustAnchors, timeStampAnchors: timeStampAnchors), now: now)
    }

    /// Throws `C2PAError.noManifest` when the JPEG has no store and `.unsupported`/`.malformed`
    /// when it is not a readable JPEG; a damaged manifest is an Invalid report, not an error.
    public func verify(jpeg: [UInt8]) throws -> VerificationReport {
        try jpeg.withUnsafeBytes { raw in try report { try JPEGHandler().withStore(in: raw, $0) } }
    }

    /// Verifies an MP4 (any ISO-BMFF file) from its root boxes; media data is streamed through the
    /// hash, never loaded whole. Throws `noManifest` without a C2PA uuid box, `unsupported` when the
    /// file does not start with ftyp or cannot be opened; a broken box structure is an Invalid report.
    public func verify(mp4Path path: String) throws -> VerificationReport {
        let file = try POSIXFile(path: path, flags: O_RDONLY)
        let head = try AssetFormat.head(of: file)
        guard AssetFormat(head: head) == .bmff else {
            throw C2PAError.unsupported("\(path) is not an MP4 (no ftyp box first)")
        }
        return try report { try AssetFormat.bmff.handler.withStore(in: file, head: head, mapping: false, $0) }
    }

    /// Verifies a JPEG or an MP4, told apart by `AssetFormat` from their first bytes.
    /// `mapping`: a JPEG that is a regular file is mapped instead of read (no copy: a 4 MB photo
    /// verifies ~2 ms sooner); for a process that may die if someone shrinks the file meanwhile
    /// (SIGBUS), such as a one-shot command, never for a daemon.
    public func verify(fileAt path: String, mapping: Bool = false) throws -> VerificationReport {
        let file = try POSIXFile(path: path, flags: O_RDONLY)
        let head = try AssetFormat.head(of: file)
        guard let format = AssetFormat(head: head) else {
            throw C2PAError.unsupported("\(path) is neither a JPEG nor an MP4")
        }
        return try report { try format.handler.withStore(in: file, head: head, mapping: mapping, $0) }
    }

    /// The report on the store `open` finds: a store or container that does not read is an
    /// Invalid report with general.error; no store at all is `noManifest`, thrown.
    private func report(_ open: (_ body: ([UInt8], any BoundAsset) throws -> VerificationReport) throws -> VerificationReport)
        throws -> VerificationReport {
        do {
            return try open { bytes, asset in
                var check = Check()
                guard let store = check.parse(bytes) else { return check.report() }
                check.verify(store: store, asset: asset, trust: trust, now: now)
                var report = check.report()
                (report.store, report.storeBytes) = (store, bytes)
                return report
            }
        } catch C2PAError.malformed(let why) {
            var check = Check()
            check.add(.failure, StatusCode.generalError, "the manifest store cannot be read: \(why)")
            return check.report()
        }
    }
}
