#if canImport(Glibc)
import Glibc
#endif
import LensCrypto

/// ISO-BMFF (MP4): the manifest store in the C2PA `uuid` box (`ContentProvenanceBox`), bound by
/// `c2pa.hash.bmff` (v1–v3). Media data is streamed through the hash, never loaded whole.
struct BMFFHandler: AssetHandler {
    func matches(head: [UInt8]) -> Bool {
        head.count >= 8 && Array(head[4..<8]) == Array("ftyp".utf8)
    }

    func withStore<Result>(in file: borrowing POSIXFile, head: [UInt8], mapping: Bool,
                           _ body: ([UInt8], any BoundAsset) throws -> Result) throws -> Result {
        let boxes = try BMFFScanner.rootBoxes(of: file)
        let stores = try boxes.filter(\.isC2PA).compactMap { box in
            try ContentProvenanceBox.manifestStore(payload: try file.read(count: box.size - box.headerSize, at: box.payload.lowerBound))
                .map { (box, $0) }
        }
        guard let (box, store) = stores.first else { throw C2PAError.noManifest }
        guard stores.count == 1 else { throw C2PAError.malformed("\(stores.count) C2PA manifest boxes") }
        return try body(store, Boxes(path: file.path, boxes: boxes, storeRange: box.range))
    }

    /// The uuid box keeps its size: the store must fit the padding left when it was signed, so no sample moves.
    func replacingStore(ofFileAt path: String, with newStore: ([UInt8]) throws -> [UInt8]) throws -> StoreSplice {
        let file = try POSIXFile(path: path, flags: O_RDONLY)
        let boxes = try BMFFScanner.rootBoxes(of: file).filter(\.isC2PA)
        guard boxes.count == 1, let box = boxes.first,
              let store = try ContentProvenanceBox.manifestStore(payload: try file.read(count: box.size - box.headerSize, at: box.payload.lowerBound))
        else { throw C2PAError.noManifest }
        let updated = try newStore(store)
        guard ContentProvenanceBox.overhead + updated.count <= box.size, box.headerSize == 24 else {
            throw C2PAError.doesNotFit(needed: ContentProvenanceBox.overhead + updated.count, available: box.size)
        }
        return StoreSplice(range: box.range, bytes: try ContentProvenanceBox.encode(store: updated, size: box.size))
    }

    func sign(inputPath: String, outputPath: String, writer: ManifestWriter) throws {
        try MP4Signer(writer: writer).sign(inputPath: inputPath, outputPath: outputPath)
    }

    /// The file's root boxes, read again from disk when hashed.
    private struct Boxes: BoundAsset {
        let path: String
        let boxes: [BMFFBox]
        let storeRange: Range<Int>

        func dataHash(excluding exclusions: [DataHashAssertion.Exclusion], algorithm: DigestAlgorithm) throws -> [UInt8]? {
            throw C2PAError.unsupported("lensd checks c2pa.hash.data on JPEG files only")
        }

        func bmffHash(exclusions: [BMFFHashAssertion.Exclusion], algorithm: DigestAlgorithm, offsets: Bool) throws -> [UInt8] {
            let file = try POSIXFile(path: path, flags: O_RDONLY)
            return try BMFFHasher.digest(of: file, boxes: boxes, exclusions: exclusions, algorithm: algorithm, offsets: offsets)
        }
    }
}
