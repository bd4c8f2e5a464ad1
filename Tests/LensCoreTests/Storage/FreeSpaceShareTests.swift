import LensCore
import LensStorage
import XCTest

/// The share rule: at most half of the free space above min-free-bytes, one's own results counted as free.
final class FreeSpaceShareTests: XCTestCase {
    func testAUserMayTakeHalfOfWhatIsFreeTheirOwnCounted() {
        XCTAssertEqual(FreeSpaceShare(used: 0, freeAboveMinimum: 20).room, 10)
        XCTAssertEqual(FreeSpaceShare(used: 10, freeAboveMinimum: 10).room, 0, "at half of the 20: no more")
        XCTAssertEqual(FreeSpaceShare(used: 0, freeAboveMinimum: 10).room, 5, "the next user: half of what is left")
        XCTAssertLessThan(FreeSpaceShare(used: 12, freeAboveMinimum: 8).room, 0)
        XCTAssertLessThanOrEqual(FreeSpaceShare(used: 0, freeAboveMinimum: -5).room, 0, "below min-free-bytes: nothing")
    }

    func testTheRefusalSaysWhatTheUserHasAndWhatToDo() {
        let refusal = FreeSpaceShare(used: 10, freeAboveMinimum: 10).refusal
        XCTAssertTrue(refusal.contains("10 bytes"), refusal)
        XCTAssertTrue(refusal.contains("min-free-bytes"), refusal)
        XCTAssertTrue(refusal.contains("lensctl rm"), refusal)
    }
}
