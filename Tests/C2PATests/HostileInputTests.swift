import Foundation
import XCTest
@testable import C2PA
@testable import C2PAEncoding

/// Inputs the fuzzers found; each must be refused or read quickly, never crash or hang.
final class HostileInputTests: XCTestCase {
    /// start + length past Int.max used to trap when the verifier built the excluded range.
    func testExclusionThatOverflowsIsMalformed() {
        let exclusion = CBOR.textMap([("start", .unsigned(1 << 62)), ("length", .unsigned(1 << 62))])
        let cbor = CBOR.textMap([("exclusions", .array([exclusion])), ("hash", .bytes([UInt8](repeating: 0, count: 32)))])
        XCTAssertThrowsError(try DataHashAssertion(cbor: cbor, claimAlgorithm: .sha256))
    }

    /// 40 arrays nested 510 deep took 28 s to read with a try-each-type decoder.
    func testDeeplyNestedJSONIsReadInOnePass() throws {
        let one = String(repeating: "[", count: 510) + String(repeating: "]", count: 510)
        let json = "[" + Array(repeating: one, count: 40).joined(separator: ",") + "]"
        let started = Date()
        guard case .array(let items) = try JSONValue(parsing: Array(json.utf8)) else { return XCTFail("not an array") }
        XCTAssertEqual(items.count, 40)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "liveness only")
    }

    func testJSONKeepsBooleansApartFromNumbers() throws {
        XCTAssertEqual(try JSONValue(parsing: Array(#"{"a": true, "b": 1, "c": 0, "d": false, "e": 1.5, "f": null}"#.utf8)),
                       .object(["a": .bool(true), "b": .number(1), "c": .number(0), "d": .bool(false), "e": .number(1.5), "f": .null]))
    }

    /// The regression inputs under fuzz/ are replayed by scripts/fuzz-replay with sanitizers;
    /// this runs them through the plain verifier too.
    func testFuzzRegressionsAreRefusedOrRated() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fuzz/regressions/fuzz-jpeg")
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        XCTAssertFalse(files.isEmpty)
        for file in files {
            if let report = try? Verifier().verify(jpeg: Array(Data(contentsOf: file))) {
                XCTAssertEqual(report.state, .invalid, file.lastPathComponent)
            }
        }
    }

    /// Ingredient chains deeper than c2pa-rs's limit are refused (it raises: lensd rates Invalid
    /// with general.error), and thousands of references to one big manifest check it once.
    func testIngredientWalksAreBounded() throws {
        let chain = (0..<(IngredientCheck.maximumDepth + 20)).map { i in
            Self.manifest("urn:c2pa:\(i)", parents: i == 0 ? [] : ["urn:c2pa:\(i - 1)"])
        }
        let deep = try Self.verify(chain)
        XCTAssertEqual(deep.state, .invalid)
        XCTAssertTrue(deep.failures.contains { $0.code == StatusCode.generalError }, "\(deep.failures.map(\.code))")

        let big = Self.manifest("urn:c2pa:big", parents: [], filler: 1 << 19)
        let wide = Self.manifest("urn:c2pa:wide", parents: Array(repeating: "urn:c2pa:big", count: 5000))
        let started = Date()
        let report = try Self.verify([big, wide])
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "liveness only")
        XCTAssertEqual(report.ingredientDeltas.count, 5000)
        XCTAssertEqual(report.manifests.count, 2)
    }

    private static func verify(_ manifests: [JUMBFSuperbox]) throws -> VerificationReport {
        let store = JUMBFSuperbox(description: .init(type: .manifestStore, label: "c2pa"), children: manifests.map { .superbox($0) })
        var check = Check()
        check.verify(store: try ManifestStore(jumbf: store.encoded), asset: JPEGHandler.Bytes(bytes: UnsafeRawBufferPointer(start: nil, count: 0), storeRange: 0..<0),
                     trust: TrustPolicy(), now: Date())
        return check.report()
    }

    /// An unsigned manifest whose claim references one ingredient assertion per parent (and an
    /// opaque box of `filler` bytes, to make hashing it cost something).
    private static func manifest(_ label: String, parents: [String], filler: Int = 0) -> JUMBFSuperbox {
        let ingredients = parents.enumerated().map { index, parent in
            JUMBFSuperbox(description: .init(type: .cbor, label: index == 0 ? "c2pa.ingredient.v3" : "c2pa.ingredient.v3__\(index)"),
                          children: [.content(type: "cbor", payload: CBOR.textMap([
                              ("relationship", .text("parentOf")),
                              ("activeManifest", .textMap([("url", .text("self#jumbf=/c2pa/\(parent)")), ("hash", .bytes([]))])),
                          ]).encoded())])
        }
        let references = ingredients.map { CBOR.textMap([("url", .text("self#jumbf=c2pa.assertions/\($0.label!)")), ("hash", .bytes([]))]) }
        let claim = CBOR.textMap([("instanceID", .text("xmp:iid:\(label)")), ("claim_generator_info", .textMap([("name", .text("test"))])),
                                  ("signature", .text("self#jumbf=c2pa.signature")), ("created_assertions", .array(references))])
        let store = JUMBFSuperbox(description: .init(type: .assertionStore, label: Labels.assertionStore),
                                  children: ingredients.map { .superbox($0) } + [.content(type: "free", payload: [UInt8](repeating: 0, count: filler))])
        return JUMBFSuperbox(description: .init(type: .manifest, label: label), children: [
            .superbox(store),
            .superbox(JUMBFSuperbox(description: .init(type: .claim, label: Labels.claimV2), children: [.content(type: "cbor", payload: claim.encoded())])),
        ])
    }
}
