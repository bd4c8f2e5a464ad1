import Foundation
import XCTest

/// The C2PA Conformance Program's 2.4 asset rubric as a test oracle: runs
/// Tests/oracle/conformance_rubric.py over the crJSON c2pa-python writes for a file.
public struct ConformanceReport: Decodable {
    public struct Statement: Decodable {
        /// true, false or "warn" (decoded as text).
        public let value: OracleJSON
        public let matches: [OracleJSON]
    }

    public struct Signals: Decodable {
        public let label: String?
        public let capturedMedia: Bool
        public let ambiguousActions: Bool
    }

    public let statements: [String: Statement]
    /// Ids of the statements that are false.
    public let failed: [String]
    /// The signals rubric's capturedMedia / ambiguousActions, per manifest (active first).
    public let signals: [Signals]
    public let error: String?
}

public enum ConformanceRubric {
    public static func report(file: URL, anchors: [URL] = []) throws -> ConformanceReport {
        var argv = [try TestTools.python(), TestTools.oracleDir.appendingPathComponent("conformance_rubric.py").path, file.path]
        for anchor in anchors { argv += ["--trust-anchor", anchor.path] }
        let result = try runProcess(argv)
        guard [0, 1, 3].contains(result.status) else {
            throw TestToolError("conformance_rubric.py exited \(result.status): " + String(decoding: result.stderr, as: UTF8.self))
        }
        return try JSONDecoder().decode(ConformanceReport.self, from: result.stdout)
    }

    /// Asserts that every statement of the rubric holds for `file` and that no manifest reads as
    /// ambiguous actions; `capturedMedia` is what the capture's manifest (the first written, the
    /// last in crJSON) must say, while an update manifest above it claims no capture.
    @discardableResult
    public static func assertConformant(_ file: URL, anchors: [URL], capturedMedia: Bool,
                                        file callerFile: StaticString = #filePath, line: UInt = #line) throws -> ConformanceReport {
        let report = try report(file: file, anchors: anchors)
        XCTAssertNil(report.error, file: callerFile, line: line)
        XCTAssertEqual(report.statements.count, 31, "every statement of the 2.4 rubric", file: callerFile, line: line)
        XCTAssertEqual(report.failed, [], "\(file.lastPathComponent): \(report.failed.map { "\($0) \(report.statements[$0]?.matches ?? [])" })",
                       file: callerFile, line: line)
        XCTAssertEqual(report.signals.filter(\.ambiguousActions).map(\.label), [], "ambiguousActions", file: callerFile, line: line)
        // The capture is the last manifest of the store: the first one written.
        XCTAssertEqual(report.signals.last?.capturedMedia, capturedMedia, "capturedMedia", file: callerFile, line: line)
        XCTAssertEqual(report.signals.dropLast().filter(\.capturedMedia).count, 0, "an update claims no capture",
                       file: callerFile, line: line)
        return report
    }
}
