import LensTestSupport
import C2PA
import Foundation
import XCTest

extension XCTestCase {
    /// Runs both verifiers on `file` and asserts they agree: same state, same failure codes, in
    /// the active manifest and in the ingredients' deltas.
    /// `expect` pins the reference's state too, so a tamper that both miss cannot pass. Where
    /// c2pa-rs raises instead of rating the file, lensd must rate it Invalid with a general.error.
    /// `daysAhead` moves both clocks: the reference runs under faketime, lensd's verifier is told the date.
    /// `alsoComparing`: each of those codes is among the active manifest's success statuses on
    /// both sides or on neither, and likewise among its informational ones.
    @discardableResult
    func assertVerifiersAgree(on file: URL, anchors: [URL], expect: String, _ context: String = "",
                              daysAhead: Int = 0, alsoComparing codes: Set<String> = [], line: UInt = #line) throws -> VerificationReport {
        let reference = try ReferenceValidator.verdict(file: file, anchors: anchors,
                                                       clockOffset: daysAhead == 0 ? nil : "+\(daysAhead)d")
        let own = try LensdSigning.verify(file, anchors: anchors, now: Date().addingTimeInterval(Double(daysAhead) * 86_400))
        let ownFailures = Set(own.failures.map(\.code))
        if reference.validationState == nil {
            // c2pa-rs raised instead of rating the file.
            XCTAssertEqual(reference.exitStatus, 3, "\(context): \(reference.error ?? "")", line: line)
            XCTAssertEqual(own.state, .invalid, context, line: line)
            XCTAssertTrue(ownFailures.contains(StatusCode.generalError) || ownFailures.contains(StatusCode.claimMalformed),
                          "\(context): \(ownFailures)", line: line)
            XCTAssertEqual("Invalid", expect, context, line: line)
        } else {
            // The principle first: wherever lensd's evaluation falls short of c2pa-rs's, it must not
            // rate a file higher (Invalid < Valid < Trusted); then the verdicts must be the same.
            let rank = ["Invalid": 0, "Valid": 1, "Trusted": 2]
            XCTAssertLessThanOrEqual(rank[own.state.rawValue] ?? 0, rank[reference.validationState ?? ""] ?? 0,
                                     "\(context): lensd more lenient than c2pa-rs: \(own.state.rawValue) for \(reference.validationState ?? "")",
                                     line: line)
            XCTAssertEqual(reference.validationState, expect, "\(context): reference \(reference.failureCodes)", line: line)
            XCTAssertEqual(own.state.rawValue, reference.validationState, "\(context): lensd \(own.failures)", line: line)
            XCTAssertEqual(ownFailures, Set(reference.failureCodes), context, line: line)
            for (kind, theirs) in [(ValidationStatus.Kind.success, reference.success), (.informational, reference.informational)] {
                XCTAssertEqual(Set(own.statuses.filter { $0.kind == kind }.map(\.code)).intersection(codes),
                               Set(theirs).intersection(codes), "\(context): \(kind)", line: line)
            }
            XCTAssertEqual(Set(own.ingredientFailures.map(\.code)), Set(reference.ingredientFailures), "\(context): ingredients",
                           line: line)
        }
        return own
    }
}
