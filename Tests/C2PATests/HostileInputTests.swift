import Foundation
import XCTest
@testable import C2PA

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
}
