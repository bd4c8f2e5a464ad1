import Foundation
import LensTestSupport
import XCTest

/// Validates lensctl's --json output against docs/schemas/ with the venv's jsonschema
/// (Draft 2020-12), every schema loaded into one registry so their cross-references resolve:
/// Tests/oracle/json_schema_check.py, one process for the whole test process (OracleServer).
enum JSONSchemaCheck {
    static let directory = TestTools.repoRoot.appendingPathComponent("docs/schemas")

    /// Asserts that `output` is valid under docs/schemas/lensctl-`schema`.schema.json; with
    /// `lines`, that every line of it is (JSON Lines, as `watch` prints).
    static func assertValid(_ output: String, schema: String, lines: Bool = false,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let (valid, report) = try check(output, schema: schema, lines: lines)
        XCTAssertTrue(valid, "lensctl-\(schema).schema.json: \(report)\n\(output)", file: file, line: line)
    }

    /// Asserts that the schema rejects `output` (a document lensctl must never print).
    static func assertInvalid(_ output: String, schema: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (valid, _) = try check(output, schema: schema, lines: false)
        XCTAssertFalse(valid, "lensctl-\(schema).schema.json accepts \(output)", file: file, line: line)
    }

    /// Whether every schema is itself valid and `output` validates; the validator's report.
    private static func check(_ output: String, schema: String, lines: Bool) throws -> (valid: Bool, report: String) {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("lensctl-json-\(UUID().uuidString).json")
        try output.write(to: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: input) }
        let (status, json) = try OracleServer.schemaChecks.ask([directory.path, "urn:lensd:schema:lensctl-\(schema)",
                                                                 lines ? "lines" : "document", input.path])
        let report = try JSONDecoder().decode([String: String].self, from: json)["report"] ?? ""
        // 1: the document does not validate; 2 (a broken schema: SchemaError) is no answer.
        guard status == 0 || status == 1 else { throw TestToolError(report) }
        return (status == 0, report)
    }
}
