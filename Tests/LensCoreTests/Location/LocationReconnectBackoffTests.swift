@testable import LensCore
@testable import LensNetwork
import XCTest

final class LocationReconnectBackoffTests: XCTestCase {
    func testDoublesFromHalfASecondToEightAndStartsOverAfterReset() {
        var backoff = ReconnectBackoff()
        let delays = (0..<7).map { _ in backoff.next() }
        XCTAssertEqual(delays, [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8), .seconds(8)])
        backoff.reset()
        XCTAssertEqual(backoff.next(), .milliseconds(500))
    }
}
