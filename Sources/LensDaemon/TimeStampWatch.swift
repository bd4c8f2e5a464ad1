import FoundationEssentials
import LensBus
import LensCore
import LensCrypto
import LensNetwork
import LensSystem

/// Under `timestamp = required`, whether some TSA answers — asked in the background, never per
/// frame: at start, then while none answers after a growing delay (0.5 s doubling to 8 s), and
/// once one does, every minute so an outage is noticed before a capture runs into it. What a
/// capture's own request finds counts as an answer too.
final class TimeStampWatch {  // confined to the loop thread; probes run on `worker`
    /// nil while a TSA answers; otherwise why none does (capture is disabled, reason `timestamp`).
    private(set) var problem: String? = "no TSA has answered yet"
    private let client: TSAClient
    private let loop: any LoopExecutor
    /// Whether a TSA answers changed.
    var changed: () -> Void = {}
    private let worker = SerialWorker(name: "lensd-tsa-check")
    private var backoff = ReconnectBackoff()
    private var timer: (any Cancellable)?
    private var probing = false

    static let healthyInterval = Duration.seconds(60)

    init(client: TSAClient, loop: any LoopExecutor) {
        self.client = client
        self.loop = loop
    }

    func start() { probe() }

    func stop() {
        timer?.cancel()
        worker.stop()
    }

    /// A capture's time-stamp went through or failed: the TSAs' state is known without asking.
    func captureFound(_ outcome: TimeStamping.Outcome) {
        switch outcome {
        case .stamped: update(nil)
        case .unstamped(let reason):
            update(reason)
            probeSoon()
        }
    }

    private func probe() {
        guard !probing else { return }
        probing = true
        timer?.cancel()
        timer = nil
        let client = client, back = loop.confine(self)
        worker.submit {
            // Any bytes do: the question is only whether a trusted TSA answers.
            let probe = (0..<32).map { _ in UInt8.random(in: .min ... .max) }
            let result = Result { try client.timeStamp(probe, signerValidity: Date.distantPast...Date.distantFuture) }
            back.post { $0.probed(result) }
        }
    }

    private func probed(_ result: Result<TimeStampToken, Error>) {
        probing = false
        switch result {
        case .success: update(nil)
        case .failure(let error): update("\(error)")
        }
        if problem == nil {
            backoff.reset()
            timer = loop.schedule(after: Self.healthyInterval) { [weak self] in self?.probe() }
        } else {
            probeSoon()
        }
    }

    private func probeSoon() {
        guard !probing else { return }
        timer?.cancel()
        timer = loop.schedule(after: backoff.next()) { [weak self] in self?.probe() }
    }

    private func update(_ newProblem: String?) {
        guard newProblem != problem else { return }
        if let newProblem, problem == nil {
            Log.warning("capture disabled (timestamp): no TSA answers: \(newProblem)")
        } else if newProblem == nil {
            Log.info("capture enabled (timestamp): a TSA answers")
        }
        problem = newProblem
        changed()
    }
}
