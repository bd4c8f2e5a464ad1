import Foundation
import LensTestSupport
import XCTest

/// Each command's --json output validates against its schema in docs/schemas.
final class LensctlJSONTests: LensdTestCase {
    func testEveryCommandMatchesItsSchema() throws {
        try JSONSchemaCheck.assertValid(try lensctl.expect(0, ["status", "--json"]).stdout, schema: "status")
        try JSONSchemaCheck.assertValid(try lensctl.expect(0, ["devices", "--json"]).stdout, schema: "devices")
        try JSONSchemaCheck.assertValid(try lensctl.expect(0, ["trust-anchor", "--json"]).stdout, schema: "trust-anchor")
        for setting in [["flash", "on"], ["flash", "toggle"], ["zoom", "2"], ["zoom", "1.5", "--pinch"], ["focus", "0.2", "0.8"],
                        ["camera", "front"]] {
            try JSONSchemaCheck.assertValid(try lensctl.expect(0, ["set"] + setting + ["--json"]).stdout, schema: "set")
        }
        let photo = outbox.appendingPathComponent("x.jpg").path
        let captured = try lensctl.expect(0, ["capture", "-o", photo, "--camera", "back", "--flash", "off", "--zoom", "1", "--json"])
        try JSONSchemaCheck.assertValid(captured.stdout, schema: "capture")
        try JSONSchemaCheck.assertValid(try lensctl.expect(0, ["verify", photo, "--json"]).stdout, schema: "verify")
        try JSONSchemaCheck.assertValid(try lensctl.expect(0, ["watch", "--json", "--duration", "0.5"]).stdout,
                                        schema: "watch", lines: true)
        let failed = try lensctl.expect(1, ["capture", "-o", photo, "--json"])
        try JSONSchemaCheck.assertValid(failed.stdout, schema: "error")
    }

    /// The schemas are strict: a field lensctl does not print is rejected.
    func testTheSchemasRejectWhatLensctlDoesNotPrint() throws {
        let status = try lensctl.expect(0, ["status", "--json"]).stdout
        let extra = status.replacingOccurrences(of: "\"version\"", with: "\"surprise\" : 1, \"version\"")
        let input = tmp.file("extra.json")
        try extra.write(to: input, atomically: true, encoding: .utf8)
        let r = try runProcess([try TestTools.python(), "-c", """
            import json, sys
            from jsonschema import Draft202012Validator
            schema = json.load(open(sys.argv[1]))
            sys.exit(0 if Draft202012Validator(schema).is_valid(json.load(open(sys.argv[2]))) else 1)
            """, JSONSchemaCheck.directory.appendingPathComponent("lensctl-status.schema.json").path, input.path])
        XCTAssertEqual(r.status, 1, String(decoding: r.stderr, as: UTF8.self))
    }
}
