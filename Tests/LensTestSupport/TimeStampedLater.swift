import Foundation
import XCTest

/// What a result time-stamped after it was signed (an update manifest) must show: Trusted
/// today; two years on, past the device certificate, still Trusted (see RestampingTests); and
/// `lensctl verify`, run offline like c2pa-python, reaching c2pa-python's state both times and
/// saying when it was time-stamped.
public enum TimeStampedLater {
    /// `anchors`: the device's trust anchor, then the TSA's root; `home` is lensctl's $HOME.
    public static func assert(_ file: URL, anchors: [URL], home: URL, line: UInt = #line) throws {
        let today = try ReferenceValidator.verdict(file: file, anchors: anchors)
        XCTAssertEqual(today.validationState, "Trusted", "\(today.failureCodes) \(today.ingredientFailures)", line: line)
        XCTAssertTrue(today.claimAssertions.contains { $0.contains("c2pa.time-stamp") }, "\(today.claimAssertions)", line: line)
        // The update manifest too meets the 2.4 rubric (the tests' cameras are synthetic: no capture claimed).
        try ConformanceRubric.assertConformant(file, anchors: anchors, capturedMedia: false, line: line)
        let later = try ReferenceValidator.verdict(file: file, anchors: anchors, clockOffset: "+730d")
        XCTAssertTrue(later.isTrusted, "\(later.validationState ?? "-"): \(later.failureCodes) \(later.ingredientFailures)", line: line)
        for (verdict, clock) in [(today, nil), (later, "+730d")] {
            var argv = [try DaemonUnderTest.installedBinary("lensctl"), "verify", file.path, "--trust-anchor", anchors[0].path,
                        "--tsa-trust-anchor", anchors[1].path]
            if let clock { argv = ["faketime", "-f", clock] + argv }
            let text = String(decoding: try runProcess(argv, env: ["HOME": home.path, "LENSCTL_TRUST_ANCHORS": ""]).stdout, as: UTF8.self)
            XCTAssertTrue(text.hasPrefix("\(file.path): \(verdict.validationState ?? "?")"), "lensctl \(clock ?? "today"): \(text)", line: line)
            XCTAssertTrue(text.contains("time-stamped 20"), text, line: line)
        }
    }
}
