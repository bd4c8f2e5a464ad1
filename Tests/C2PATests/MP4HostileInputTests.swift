import LensTestSupport
import Foundation
import XCTest
@testable import C2PA
@testable import C2PAEncoding
import LensCrypto

/// Box structures and hash assertions no honest writer makes: each is refused with a typed
/// error or rated Invalid, never a crash.
final class MP4HostileInputTests: XCTestCase {
    var tmp: TemporaryDirectory!

    override func setUpWithError() throws { tmp = try TemporaryDirectory() }
    override func tearDown() { tmp = nil }

    static let ftyp: [UInt8] = box("ftyp", Array("isom".utf8) + [0, 0, 2, 0] + Array("isommp41".utf8))

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendBigEndian(UInt32(8 + payload.count))
        bytes.append(ascii: type)
        return bytes + payload
    }

    static func header(size: UInt32, _ type: String, largeSize: UInt64? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendBigEndian(size)
        bytes.append(ascii: type)
        if let largeSize { bytes.appendBigEndian(largeSize) }
        return bytes
    }

    func testHostileBoxHeadersThrowEverywhere() throws {
        let hostile: [(String, [UInt8])] = [
            ("size below 8", Self.header(size: 4, "mdat") + [1, 2, 3, 4]),
            ("size past the end", Self.header(size: 0xFFFF_FFFF, "mdat") + [1, 2, 3]),
            ("64-bit size below 16", Self.header(size: 1, "mdat", largeSize: 8)),
            ("64-bit size past Int.max", Self.header(size: 1, "mdat", largeSize: .max)),
            ("64-bit size cut off", Self.header(size: 1, "mdat") + [0, 0]),
            ("truncated header", [0, 0, 0]),
            ("uuid without extended type", Self.header(size: 20, "uuid") + [UInt8](repeating: 7, count: 12)),
        ]
        let signer = MP4Signer(writer: try writer())
        for (name, tail) in hostile {
            let bytes = Self.ftyp + tail
            XCTAssertThrowsError(try BMFFScanner.children(of: bytes[...], at: 0), name) { error in
                guard case C2PAError.malformed = error else { return XCTFail("\(name): \(error)") }
            }
            let file = tmp.file("hostile.mp4")
            try Data(bytes).write(to: file)
            XCTAssertThrowsError(try BMFFHasher.hash(fileAt: file.path), name)
            XCTAssertThrowsError(try signer.sign(inputPath: file.path, outputPath: tmp.file("out.mp4").path), name)
            // No manifest could be found in a box structure that does not read: Invalid, or an error.
            if let report = try? Verifier().verify(fileAt: file.path) {
                XCTAssertEqual(report.state, .invalid, name)
                XCTAssertEqual(report.failures.map(\.code), [StatusCode.generalError], name)
            }
        }
    }

    /// Size 0 means "to the end of the file"; a 64-bit size is read as such.
    func testSizeZeroAndLargeSizeAreRead() throws {
        var large = Self.header(size: 1, "free", largeSize: 20)
        large += [0, 0, 0, 0]
        let bytes = Self.ftyp + large + Self.header(size: 0, "mdat") + [9, 9, 9]
        let boxes = try BMFFScanner.children(of: bytes[...], at: 0)
        XCTAssertEqual(boxes.map(\.type), ["ftyp", "free", "mdat"])
        XCTAssertEqual(boxes[1].headerSize, 16)
        XCTAssertEqual(boxes[1].size, 20)
        XCTAssertEqual(boxes[2].size, 11)
        XCTAssertEqual(boxes[2].end, bytes.count)
    }

    func testHashAssertionRoundTripsAndRefusesBadFields() throws {
        let assertion = BMFFHashAssertion(hash: [UInt8](repeating: 0xab, count: 32))
        guard case .cbor(let cbor) = try assertion.content() else { return XCTFail("not CBOR") }
        let read = try BMFFHashAssertion(cbor: try CBORDecoder.decode(cbor.encoded()), claimAlgorithm: .sha384)
        XCTAssertEqual(read.exclusions, BMFFHashAssertion.standardExclusions)
        XCTAssertEqual(read.algorithm, .sha256)
        XCTAssertEqual(read.hash, assertion.hash)
        XCTAssertEqual(read.name, "jumbf manifest")

        let hash = ("hash", CBOR.bytes([0]))
        let bad: [(String, CBOR)] = [
            ("no hash", .textMap([("exclusions", .array([]))])),
            ("no exclusions", .textMap([hash])),
            ("exclusion without xpath", .textMap([hash, ("exclusions", .array([.textMap([("length", .int(1))])]))])),
            ("negative length", .textMap([hash, ("exclusions", .array([.textMap([("xpath", .text("/a")), ("length", .int(-1))])]))])),
            ("length past u32", .textMap([hash, ("exclusions", .array([.textMap([("xpath", .text("/a")), ("length", .unsigned(1 << 40))])]))])),
            ("data not a list", .textMap([hash, ("exclusions", .array([.textMap([("xpath", .text("/a")), ("data", .int(1))])]))])),
            ("flags not bytes", .textMap([hash, ("exclusions", .array([.textMap([("xpath", .text("/a")), ("flags", .int(1))])]))])),
            ("version past u8", .textMap([hash, ("exclusions", .array([.textMap([("xpath", .text("/a")), ("version", .int(256))])]))])),
            ("unknown algorithm", .textMap([hash, ("exclusions", .array([])), ("alg", .text("md5"))])),
            ("merkle tree", .textMap([hash, ("exclusions", .array([])), ("merkle", .array([]))])),
            ("not a map", .array([])),
        ]
        for (name, cbor) in bad {
            XCTAssertThrowsError(try BMFFHashAssertion(cbor: cbor, claimAlgorithm: .sha256), name)
        }
    }

    /// Exclusions below the root (what older writers used for chunk offsets) cut the selected
    /// boxes out of their root box, which keeps its offset prefix; `[n]` picks one of its kind.
    func testNestedExclusions() throws {
        let first = Self.box("trak", Array(repeating: 1, count: 8)), second = Self.box("trak", Array(repeating: 2, count: 8))
        let header = Self.box("mvhd", [9, 9, 9, 9])
        let moov = Self.box("moov", header + first + second), mdat = Self.box("mdat", [1, 2, 3])
        let file = tmp.file("nested.mp4")
        try Data(Self.ftyp + moov + mdat).write(to: file)
        let handle = try POSIXFile(path: file.path, flags: O_RDONLY)
        let boxes = try BMFFScanner.rootBoxes(of: handle)
        let moovOffset = Self.ftyp.count, mdatOffset = moovOffset + moov.count
        func digest(_ xpath: String) throws -> [UInt8] {
            try BMFFHasher.digest(of: handle, boxes: boxes, exclusions: [.init(xpath: "/ftyp"), .init(xpath: xpath)], algorithm: .sha256)
        }
        let prefix = BMFFHasher.offsetPrefix
        XCTAssertEqual(try digest("/moov/trak"),
                       Digest.hash(prefix(moovOffset) + Array(moov.prefix(8)) + header + prefix(mdatOffset) + mdat))
        XCTAssertEqual(try digest("/moov/trak[2]"),
                       Digest.hash(prefix(moovOffset) + Array(moov.prefix(8)) + header + first + prefix(mdatOffset) + mdat))
        XCTAssertEqual(try digest("/moov/trak[3]"), try digest("/moov/none"), "a step that selects nothing excludes nothing")
        XCTAssertThrowsError(try digest("/moov[1]/trak")) { error in
            guard case C2PAError.unsupported = error else { return XCTFail("\(error)") }
        }
        for bad in ["/moov/trak[0]", "/moov//trak", "moov/trak", "/moov/trak[x]"] {
            XCTAssertThrowsError(try digest(bad), bad)
        }
        // A container whose children do not tile it cannot be searched.
        try Data(Self.ftyp + Self.box("moov", [0, 0, 0, 99] + Array("trak".utf8)) + mdat).write(to: file)
        let broken = try POSIXFile(path: file.path, flags: O_RDONLY)
        XCTAssertThrowsError(try BMFFHasher.digest(of: broken, boxes: try BMFFScanner.rootBoxes(of: broken),
                                                 exclusions: [.init(xpath: "/moov/trak")], algorithm: .sha256))
    }

    /// The root-level exclusion keys, each able to select or spare a box.
    func testExclusionKeysSelectBoxes() throws {
        let c2pa = [0x01, 0x00, 0x00, 0x05] + Array("manifest".utf8) + [0]
        let bytes = Self.ftyp + Self.box("uuid", ContentProvenanceBox.uuid + c2pa) + Self.box("mdat", Array(0..<32))
        let boxes = try BMFFScanner.children(of: bytes[...], at: 0)
        let read = { (offset: Int, count: Int) throws -> [UInt8] in
            guard offset + count <= bytes.count else { throw C2PAError.malformed("past the end") }
            return Array(bytes[offset..<(offset + count)])
        }
        let uuid = boxes[1], mdat = boxes[2]
        func excluded(_ exclusion: BMFFHashAssertion.Exclusion, _ box: BMFFBox) throws -> [Range<Int>]? {
            try BMFFHasher.excludedRanges(of: box, exclusions: [exclusion], read: read)
        }
        XCTAssertNil(try excluded(.init(xpath: "/mdat"), mdat))
        XCTAssertEqual(try excluded(.init(xpath: "/moov"), mdat), [])
        XCTAssertNil(try excluded(.init(xpath: "/mdat", length: 40), mdat))
        XCTAssertEqual(try excluded(.init(xpath: "/mdat", length: 41), mdat), [])
        XCTAssertNil(try excluded(.init(xpath: "/mdat", data: [.init(offset: 8, value: [0, 1])]), mdat))
        XCTAssertEqual(try excluded(.init(xpath: "/mdat", data: [.init(offset: 8, value: [1, 1])]), mdat), [])
        XCTAssertEqual(try excluded(.init(xpath: "/mdat", subset: [.init(offset: 10, length: 4), .init(offset: 30, length: 0)]), mdat),
                       [(mdat.offset + 10)..<(mdat.offset + 14), (mdat.offset + 30)..<mdat.end])
        XCTAssertNil(try excluded(.init(xpath: "/uuid", version: 1, flags: [0, 0, 5]), uuid))
        XCTAssertEqual(try excluded(.init(xpath: "/uuid", version: 0), uuid), [])
        XCTAssertEqual(try excluded(.init(xpath: "/uuid", flags: [0, 0, 4]), uuid), [])
        XCTAssertNil(try excluded(.init(xpath: "/uuid", flags: [0, 0, 7], exact: false), uuid))
        XCTAssertEqual(try excluded(.init(xpath: "/uuid", flags: [0, 0, 4], exact: false), uuid), [])
        // A data match past the end of the file is an error, as in c2pa-rs.
        XCTAssertThrowsError(try excluded(.init(xpath: "/mdat", data: [.init(offset: 40, value: [0, 0])]), mdat))
    }

    private func writer() throws -> ManifestWriter {
        let pki = try TestPKI.make(in: tmp.file("pki"))
        return ManifestWriter(generator: LensdSigning.generator, assertions: [], signer: try LensdSigning.signer(pki))
    }
}
