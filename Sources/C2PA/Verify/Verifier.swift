#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LensCrypto

/// Verifies an asset's manifest store as c2pa-rs does: the active manifest (signature, signing
/// credential at a trusted time-stamp's time or now, trust, every hashed URI, the hard binding),
/// then every ingredient's manifest, with the spec's status codes.
public struct Verifier: Sendable {
    public var trustAnchors: [Certificate]
    /// Roots trusted for time-stamp authorities only (`--tsa-trust-anchor`), besides `trustAnchors`.
    public var timeStampAnchors: [Certificate]
    public var now: Date

    public init(trustAnchors: [Certificate] = [], timeStampAnchors: [Certificate] = [], now: Date = Date()) {
        self.trustAnchors = trustAnchors
        self.timeStampAnchors = timeStampAnchors
        self.now = now
    }

    /// Throws `C2PAError.noManifest` when the JPEG has no store and `.unsupported`/`.malformed`
    /// when it is not a readable JPEG; a damaged manifest is an Invalid report, not an error.
    public func verify(jpeg: [UInt8]) throws -> VerificationReport {
        try jpeg.withUnsafeBytes { try verify(jpeg: $0) }
    }

    private func verify(jpeg: UnsafeRawBufferPointer) throws -> VerificationReport {
        var check = Check()
        let found: (store: [UInt8], location: Range<Int>)
        do {
            guard let store = try JPEGXT.manifestStore(in: jpeg, segments: try JPEGSegment.scanHeader(jpeg).segments)
            else { throw C2PAError.noManifest }
            found = store
        } catch C2PAError.malformed(let why) {
            check.add(.failure, StatusCode.generalError, "the manifest store cannot be read: \(why)")
            return check.report()
        }
        guard let store = check.parse(found.store) else { return check.report() }
        check.verify(store: store, asset: .jpeg(bytes: jpeg, storeLocation: found.location), anchors: trustAnchors,
                     timeStampAnchors: timeStampAnchors, now: now)
        return check.report()
    }

    /// Verifies an MP4 (any ISO-BMFF file) from its root boxes; media data is streamed through the
    /// hash, never loaded whole. Throws `noManifest` without a C2PA uuid box, `unsupported` when the
    /// file does not start with ftyp or cannot be opened; a broken box structure is an Invalid report.
    public func verify(mp4Path path: String) throws -> VerificationReport {
        let file = try POSIXFile(path: path, flags: O_RDONLY)
        guard try file.size >= 8, try file.read(count: 4, at: 4) == Array("ftyp".utf8) else {
            throw C2PAError.unsupported("\(path) is not an MP4 (no ftyp box first)")
        }
        var check = Check()
        let boxes: [BMFFBox], store: [UInt8]
        do {
            boxes = try BMFFScanner.rootBoxes(of: file)
            let stores = try boxes.filter(\.isC2PA).compactMap { box in
                try ContentProvenanceBox.manifestStore(payload: try file.read(count: box.size - box.headerSize, at: box.payload.lowerBound))
            }
            guard let first = stores.first else { throw C2PAError.noManifest }
            guard stores.count == 1 else { throw C2PAError.malformed("\(stores.count) C2PA manifest boxes") }
            store = first
        } catch C2PAError.malformed(let why) {
            check.add(.failure, StatusCode.generalError, "the manifest store cannot be read: \(why)")
            return check.report()
        }
        guard let parsed = check.parse(store) else { return check.report() }
        check.verify(store: parsed, asset: .bmff(path: path, boxes: boxes), anchors: trustAnchors,
                     timeStampAnchors: timeStampAnchors, now: now)
        return check.report()
    }

    /// Verifies a JPEG or an MP4, told apart by their first bytes (SOI, or ftyp at offset 4).
    /// `mapping`: a JPEG that is a regular file is mapped instead of read (no copy: a 4 MB photo
    /// verifies ~2 ms sooner); for a process that may die if someone shrinks the file meanwhile
    /// (SIGBUS), such as a one-shot command, never for a daemon.
    public func verify(fileAt path: String, mapping: Bool = false) throws -> VerificationReport {
        let file = try POSIXFile(path: path, flags: O_RDONLY)
        var head = [UInt8](repeating: 0, count: 8)
        let n = try head.withUnsafeMutableBytes { try file.read(into: $0) }
        if n >= 2, head[0] == 0xFF, head[1] == JPEGSegment.startOfImage {
            if mapping, let report = try file.mapped({ try verify(jpeg: $0) }) { return report }
            // Read on from where the sniff stopped: the path may be a pipe.
            return try verify(jpeg: try file.readRest(after: Array(head[..<n])))
        }
        guard n == 8, Array(head[4..<8]) == Array("ftyp".utf8) else {
            throw C2PAError.unsupported("\(path) is neither a JPEG nor an MP4")
        }
        return try verify(mp4Path: path)
    }
}

