import FoundationEssentials
import Glibc
import Dispatch
import Synchronization

/// SIGINT and SIGTERM during `record`, through dispatch signal sources rather than the default
/// action: the first asks the recording loop for a clean stop (it looks between events); a
/// second one ends lensctl at once, by the signal's default action (lensd still stores what
/// was recorded).
final class StopSignals {
    private final class Count: Sendable {
        let value = Atomic(0)
    }

    private let received = Count()
    private var sources: [any DispatchSourceSignal] = []

    init(_ numbers: [Int32] = [SIGINT, SIGTERM]) {
        for number in numbers {
            // Ignored as a disposition, still seen by the source.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [received] in
                guard received.value.add(1, ordering: .relaxed).newValue > 1 else { return }
                signal(number, SIG_DFL)
                // To the process, not this thread: dispatch's threads block signals.
                kill(getpid(), number)
            }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    var stopRequested: Bool { received.value.load(ordering: .relaxed) > 0 }
}
