import FoundationEssentials
import LensSystem
#if canImport(Glibc)
import Glibc
#endif
import LensCrypto

/// A container format lensd reads and writes C2PA manifests in, in the shape of c2pa-rs's
/// `asset_handlers`: each format's handler knows how to recognise its files, find the manifest
/// store, splice a new store in, hash what the hard binding covers, and sign. Everything that
/// must tell a JPEG from an MP4 — the verifier, store splicing, the daemon's choice of file
/// extension — asks here instead of looking at bytes or media types itself.
public struct AssetFormat: Sendable, Equatable, CustomStringConvertible {
    /// "JPEG", "MP4".
    public let name: String
    /// The media type lensd writes this format as, first, then others that name it.
    public let mediaTypes: [String]
    /// The extension lensd gives its files of this format, without the dot.
    public let fileExtension: String
    /// Whether lensd's files of this format are videos (served as files, not copied into memory).
    public let isVideo: Bool
    let handler: any AssetHandler

    private init(name: String, mediaTypes: [String], fileExtension: String, isVideo: Bool, handler: any AssetHandler) {
        (self.name, self.mediaTypes, self.fileExtension, self.isVideo, self.handler) = (name, mediaTypes, fileExtension, isVideo, handler)
    }

    public static let jpeg = AssetFormat(name: "JPEG", mediaTypes: ["image/jpeg", "image/jpg"], fileExtension: "jpg",
                                         isVideo: false, handler: JPEGHandler())
    /// ISO-BMFF: MP4, and any other file whose first box is `ftyp`.
    public static let bmff = AssetFormat(name: "MP4", mediaTypes: ["video/mp4", "audio/mp4", "application/mp4"],
                                         fileExtension: "mp4", isVideo: true, handler: BMFFHandler())
    public static let all = [jpeg, bmff]

    /// How many bytes from a file's start `init?(head:)` needs to tell every format apart.
    public static let headLength = 12

    /// The media type lensd writes (`image/jpeg`, `video/mp4`).
    public var mediaType: String { mediaTypes[0] }
    public var description: String { name }

    /// The format of a file that starts with `head` (its first `headLength` bytes, or all of a shorter file).
    public init?(head: [UInt8]) {
        guard let format = Self.all.first(where: { $0.handler.matches(head: head) }) else { return nil }
        self = format
    }

    /// The format a media type names (`image/jpeg`, `video/mp4`; parameters and case ignored).
    public init?(mediaType: String) {
        let bare = mediaType.split(separator: ";").first.map { $0.trimmed().lowercased() } ?? ""
        guard let format = Self.all.first(where: { $0.mediaTypes.contains(bare) }) else { return nil }
        self = format
    }

    /// The format of the file at `path`, from its first bytes; nil when it is none lensd reads.
    /// Throws `C2PAError.unsupported` when the file cannot be opened.
    public init?(fileAt path: String) throws {
        let file = try POSIXFile(path: path, flags: O_RDONLY)
        self.init(head: try Self.head(of: file))
    }

    /// Signs the unsigned file at `inputPath` into `outputPath` (replaced atomically; the input untouched).
    public func sign(inputPath: String, outputPath: String, writer: ManifestWriter) throws {
        try handler.sign(inputPath: inputPath, outputPath: outputPath, writer: writer)
    }

    public static func == (lhs: AssetFormat, rhs: AssetFormat) -> Bool { lhs.name == rhs.name }

    /// Up to `headLength` bytes from the file's current position (its start, freshly opened): a
    /// pipe is read once, so what follows is read on from there.
    static func head(of file: borrowing POSIXFile) throws -> [UInt8] {
        var head = [UInt8](repeating: 0, count: headLength)
        var count = 0
        while count < headLength {
            let n = try head.withUnsafeMutableBytes { try file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...])) }
            if n == 0 { break }
            count += n
        }
        return Array(head[..<count])
    }
}

/// One format's half of `AssetFormat`: what c2pa-rs's `AssetIO` handlers do, for lensd's formats.
protocol AssetHandler: Sendable {
    /// Whether `head`, a file's first bytes, starts a file of this format.
    func matches(head: [UInt8]) -> Bool

    /// Finds the manifest store in `file` (opened at its start; `head` read from it already) and
    /// hands `body` the store's bytes and the asset as its hard binding covers it. `mapping`: the
    /// file may be mapped rather than read (see `Verifier.verify(fileAt:mapping:)`). Throws
    /// `noManifest` when there is no store, `malformed` when the container does not read as far.
    func withStore<Result>(in file: borrowing POSIXFile, head: [UInt8], mapping: Bool,
                           _ body: (_ store: [UInt8], _ asset: any BoundAsset) throws -> Result) throws -> Result

    /// The store of the file at `path` replaced by `newStore(store)`, for an update manifest.
    func replacingStore(ofFileAt path: String, with newStore: ([UInt8]) throws -> [UInt8]) throws -> StoreSplice

    func sign(inputPath: String, outputPath: String, writer: ManifestWriter) throws
}

/// A signed asset as its format reads it for the hard-binding checks: `c2pa.hash.data` hashes
/// byte ranges, `c2pa.hash.bmff` boxes. A format that cannot evaluate a binding throws
/// `C2PAError.unsupported` saying so, which the check reports as a mismatch.
protocol BoundAsset {
    /// Where the manifest store lies in the file (a data hash must exclude exactly it).
    var storeRange: Range<Int> { get }

    /// The asset hashed without `exclusions`; nil when they overlap or leave the asset.
    func dataHash(excluding exclusions: [DataHashAssertion.Exclusion], algorithm: DigestAlgorithm) throws -> [UInt8]?

    /// The asset's BMFF hash under `exclusions`; `offsets: false` for the v1 `c2pa.hash.bmff`.
    func bmffHash(exclusions: [BMFFHashAssertion.Exclusion], algorithm: DigestAlgorithm, offsets: Bool) throws -> [UInt8]
}
