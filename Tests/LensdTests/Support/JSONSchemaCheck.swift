import Foundation
import LensTestSupport
import XCTest

/// Validates lensctl's --json output against docs/schemas/ with the venv's jsonschema
/// (Draft 2020-12), every schema loaded into one registry so their cross-references resolve.
enum JSONSchemaCheck {
    private static let script = """
    import json, pathlib, sys
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    schemas = [json.loads(p.read_text()) for p in sorted(pathlib.Path(sys.argv[1]).glob("*.schema.json"))]
    for schema in schemas:
        Draft202012Validator.check_schema(schema)
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas)
    validator = Draft202012Validator(next(s for s in schemas if s["$id"] == sys.argv[2]), registry=registry)
    text = pathlib.Path(sys.argv[4]).read_text()
    documents = [json.loads(line) for line in text.splitlines() if line.strip()] if sys.argv[3] == "lines" else [json.loads(text)]
    errors = [f"{list(e.absolute_path)}: {e.message}" for d in documents for e in validator.iter_errors(d)]
    print("\\n".join(errors) if errors else f"{len(documents)} valid")
    sys.exit(1 if errors or not documents else 0)
    """

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
        let r = try runProcess([try TestTools.python(), "-c", script, directory.path, "urn:lensd:schema:lensctl-\(schema)",
                                lines ? "lines" : "document", input.path])
        // 1: the document does not validate; anything else (a broken schema: SchemaError) is no answer.
        let report = String(decoding: r.stdout + r.stderr, as: UTF8.self)
        guard r.status == 0 || (r.status == 1 && !report.contains("Traceback")) else { throw TestToolError(report) }
        return (r.status == 0, report)
    }
}
