import Dispatch
import Glibc
import LensBus
import XCTest

final class EventLoopTests: XCTestCase {
    private func pump(_ loop: EventLoop, until condition: () -> Bool) throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try loop.runOnce(timeout: .milliseconds(50))
        }
        return true
    }

    func testPostFromAnotherThreadRunsOnTheLoopThread() throws {
        let loop = try EventLoop()
        let ranOnLoop = Locked<Bool?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let exitCode = Locked<Int32?>(nil)
        Thread {
            let code = try? loop.run()
            exitCode.update { $0 = code }
            finished.signal()
        }.start()
        DispatchQueue.global().async {
            loop.post {
                ranOnLoop.update { $0 = loop.isOnLoopThread }
                loop.exit(7)
            }
        }
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(ranOnLoop.value, true)
        XCTAssertEqual(exitCode.value, 7)
        XCTAssertFalse(loop.isOnLoopThread)  // the loop thread was the other one
    }

    func testPostedWorkRunsInOrder() throws {
        let loop = try EventLoop()
        let order = Locked<[Int]>([])
        for index in 0..<100 {
            loop.post { order.update { $0.append(index) } }
        }
        XCTAssertTrue(try pump(loop) { order.value.count == 100 })
        XCTAssertEqual(order.value, Array(0..<100))
    }

    func testOneShotTimerFiresOnceEvenWhenItsSourceIsDiscarded() throws {
        let loop = try EventLoop()
        var fired = 0
        loop.schedule(after: .milliseconds(10)) { fired += 1 }
        XCTAssertTrue(try pump(loop) { fired == 1 })
        try loop.runOnce(timeout: .milliseconds(50))
        XCTAssertEqual(fired, 1)
    }

    func testCancelledTimerDoesNotFire() throws {
        let loop = try EventLoop()
        var cancelledFired = false
        var laterFired = false
        let source = loop.schedule(after: .milliseconds(5)) { cancelledFired = true }
        source.cancel()
        source.cancel()
        loop.schedule(after: .milliseconds(30)) { laterFired = true }
        XCTAssertTrue(try pump(loop) { laterFired })
        XCTAssertFalse(cancelledFired)
    }

    func testRepeatingTimerRepeatsUntilCancelled() throws {
        let loop = try EventLoop()
        var ticks = 0
        var source: (any Cancellable)?
        source = loop.every(.milliseconds(5)) {
            ticks += 1
            if ticks == 3 { source?.cancel() }
        }
        XCTAssertTrue(try pump(loop) { ticks == 3 })
        var later = false
        loop.schedule(after: .milliseconds(40)) { later = true }
        XCTAssertTrue(try pump(loop) { later })
        XCTAssertEqual(ticks, 3)
    }

    func testWatchReportsAReadableFD() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        var events: UInt32 = 0
        let watch = try loop.watch(fd: fds[0], readable: true, writable: false) { events = $0 }
        XCTAssertEqual(write(fds[1], "x", 1), 1)
        XCTAssertTrue(try pump(loop) { events != 0 })
        XCTAssertNotEqual(events & 0x001, 0)  // EPOLLIN
        watch.cancel()
    }

    func testSignalIsDeliveredOnTheLoop() throws {
        let loop = try EventLoop()
        var received: [Int32] = []
        try loop.onSignals([SIGUSR2]) { received.append($0) }
        // Directed at this thread, where sd-event has blocked it, so no other thread can take it.
        pthread_kill(pthread_self(), SIGUSR2)
        XCTAssertTrue(try pump(loop) { received == [SIGUSR2] })
    }
}
