import LensTestSupport
import C2PA
import Foundation
import XCTest

/// `lensctl verify --crjson` and `--manifest-json` say in substance what c2pa-python's
/// `Reader.crjson()` and `Reader.json()` say (Tests/oracle/reader_json.py), on lensd's files and on
/// files c2pa-python wrote: the same manifests in the same order, the same assertions with the
/// same contents, the same claim, signer and time-stamp, the same status codes in the same places.
/// Left out of the comparison: explanations' wording, the validation time, the generator, empty
/// `pad` fields c2pa-rs adds to hashed URIs, CAWG identity assertions' rendering (their statuses
/// are compared), and ingredient deltas without a failure (c2pa-rs also notes informational ones).
final class ReportJSONVersusReferenceTests: XCTestCase {
    var tmp: TemporaryDirectory!
    var pki: TestPKI!

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        pki = try TestPKI.make(in: tmp.file("pki"))
    }

    override func tearDown() { tmp = nil }

    func testReportsOfLensdAndReferenceFiles() throws {
        let vga = try TestJPEG.make(at: tmp.file("vga.jpg"))
        let lensd = tmp.file("lensd.jpg")
        try LensdSigning.sign(vga, into: lensd, pki: pki, thumbnail: Array(try Data(contentsOf: vga)))
        let lensdVideo = tmp.file("lensd.mp4")
        try LensdSigning.signMP4(try TestMP4.make(at: tmp.file("in.mp4"), .mjpeg, seconds: 1), into: lensdVideo, pki: pki)
        let reference = try ReferenceSigner.sign(input: vga, output: tmp.file("reference.jpg"), pki: pki, thumbnail: true)
        let files = [
            lensd, lensdVideo, reference,
            try ReferenceSigner.sign(input: vga, output: tmp.file("v1.jpg"), pki: pki, claimVersion: 1),
            try ReferenceSigner.sign(input: vga, output: tmp.file("edit.jpg"), pki: pki, parent: reference),
            try ReferenceSigner.sign(input: reference, output: tmp.file("update.jpg"), pki: pki, parent: reference, update: true),
            try ReferenceSigner.sign(input: tmp.file("in.mp4"), output: tmp.file("reference.mp4"), pki: pki),
            try ManifestRewriter.rewrite(reference, into: tmp.file("x509.jpg"), pki: pki, [], identity: true),
            try ManifestRewriter.rewrite(reference, into: tmp.file("ica.jpg"), pki: pki, [], claimsAggregation: "{}"),
        ]
        for file in files {
            for anchors in [[pki.root], []] {
                let report = try LensdSigning.verify(file, anchors: anchors)
                let context = "\(file.lastPathComponent), \(anchors.isEmpty ? "no anchors" : "trusted root")"
                try assertSameSubstance(ours: CrJSON.document(report, generator: "lensctl", version: "test"),
                                        theirs: try referenceReport(file, "--crjson", anchors: anchors), "crJSON of \(context)")
                try assertSameSubstance(ours: ManifestStoreJSON.document(report),
                                        theirs: try referenceReport(file, "--manifest-json", anchors: anchors), "manifest JSON of \(context)")
            }
        }
    }

    // MARK: Helpers

    private func referenceReport(_ file: URL, _ mode: String, anchors: [URL]) throws -> Any {
        let output = try TestTools.runOracle("reader_json.py", [file.path, mode] + anchors.flatMap { ["--trust-anchor", $0.path] })
        return try JSONSerialization.jsonObject(with: output)
    }

    private func assertSameSubstance(ours: JSONValue?, theirs: Any, _ context: String, line: UInt = #line) throws {
        let encoder = JSONEncoder()
        let mine = try JSONSerialization.jsonObject(with: try encoder.encode(ours))
        let (a, b) = (try Self.canonical(Self.substance(mine)), try Self.canonical(Self.substance(theirs)))
        guard a != b else { return }
        // Only the lines that differ, so a failure says what.
        let (ours, reference) = (a.split(separator: "\n").map(String.init), b.split(separator: "\n").map(String.init))
        let onlyOurs = ours.filter { !reference.contains($0) }.prefix(12), onlyTheirs = reference.filter { !ours.contains($0) }.prefix(12)
        XCTFail("\(context): lensd alone: \(onlyOurs.joined(separator: " | ")) — c2pa-rs alone: \(onlyTheirs.joined(separator: " | "))",
                line: line)
    }

    private static func canonical(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .prettyPrinted, .fragmentsAllowed]),
               as: UTF8.self)
    }

    /// The report with what the comparison leaves out taken away; status lists become sorted "code url" lines.
    private static func substance(_ value: Any) -> Any {
        if let list = value as? [Any] {
            if list.allSatisfy({ ($0 as? [String: Any])?["code"] != nil }) && !list.isEmpty {
                return list.compactMap { $0 as? [String: Any] }.map { "\($0["code"] ?? "") \($0["url"] ?? "")" }.sorted()
            }
            return list.map(substance)
        }
        guard var object = value as? [String: Any] else { return value }
        for key in ["explanation", "validationTime", "jsonGenerator"] { object[key] = nil }
        if object["pad"] as? String == "b64''" { object["pad"] = nil }
        for key in object.keys where key.hasPrefix("cawg.identity") { object[key] = "identity" }
        if (object["label"] as? String)?.hasPrefix("cawg.identity") == true { object["data"] = nil }
        if let deltas = object["ingredientDeltas"] as? [[String: Any]] {
            let failing = deltas.filter { !((($0["validationDeltas"] as? [String: Any])?["failure"] as? [Any]) ?? []).isEmpty }
            object["ingredientDeltas"] = failing.isEmpty ? nil : failing.map { delta in
                [delta["ingredientAssertionURI"] ?? "", ((delta["validationDeltas"] as? [String: Any])?["failure"]) ?? []]
            }
        }
        return object.mapValues(substance)
    }
}
