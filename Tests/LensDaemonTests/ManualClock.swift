import Foundation
import LensCore
import LensSystem
import Synchronization

/// A clock tests move by hand: wall and monotonic time advance together, and only when told.
final class ManualClock: Sendable {
    private let elapsed = Mutex(Duration.zero)
    private let wallStart: Date
    private let monotonicStart = ContinuousClock.now

    init(wall: Date = Date()) { wallStart = wall }

    func advance(by duration: Duration) {
        elapsed.withLock { $0 += duration }
    }

    var clock: LensClock {
        LensClock(wall: { [self] in wallStart + elapsed.withLock { $0 } / .seconds(1) },
                  monotonic: { [self] in monotonicStart + elapsed.withLock { $0 } })
    }
}
