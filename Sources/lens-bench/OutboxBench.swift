import Foundation
import LensCore
import LensNetwork
import LensStorage

/// `outbox`: one file (50 MB of random bytes by default, or FILE) delivered over loopback to a
/// local nginx (WebDAV PUT, Tests/oracle/nginx_dav.conf) by the outbox lensd runs — LensCore's
/// Outbox, its upload thread and libcurl, from enqueue to the 2xx — next to `curl -T` of the same
/// file to the same nginx. The outbox figure is given twice: hashing the file first (as for a
/// video, which lensd publishes before hashing) and with the SHA-256 known (as for a photo).
struct OutboxBench {
    var runs = 7
    var megabytes = 50
    var file: String?

    init(_ argv: [String]) throws {
        var rest = argv[...]
        while let arg = rest.popFirst() {
            switch arg {
            case "--runs": runs = Int(rest.popFirst() ?? "") ?? 0
            case "--size": megabytes = Int(rest.popFirst() ?? "") ?? 0
            case let path where !path.hasPrefix("-") && file == nil: file = path
            default: throw BenchError("usage: \(usage)")
            }
        }
        guard runs >= 3, megabytes > 0 else { throw BenchError("outbox: --runs must be 3 or more and --size positive") }
    }

    func run() throws {
        let dir = try Measure.tmpfsDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let payload = try file ?? makePayload(in: dir)
        let size = try FileManager.default.attributesOfItem(atPath: payload)[.size] as? Int ?? 0
        let (nginx, port) = try startNginx(in: dir.appendingPathComponent("nginx"))
        defer { nginx.terminate(); nginx.waitUntilExit() }
        let stored = dir.appendingPathComponent("nginx/www/dav")

        let delivered = DeliveryWait()
        var settings = OutboxSettings(urlTemplate: "http://127.0.0.1:\(port)/dav/{name}.{ext}")
        settings.firstRetrySeconds = 0.2
        let outbox = try Outbox(settings: settings, directory: dir.appendingPathComponent("outbox").path) { event in
            if case .delivered = event { delivered.signal() }
        }
        defer { outbox.stop() }
        let sha256 = try Self.sha256(payload)
        func viaOutbox(hashKnown: Bool) throws {
            let name = UUID().uuidString.lowercased()
            try outbox.enqueue(StoredResult(name: name, uid: 0, size: size, sha256: hashKnown ? sha256 : nil, mime: "video/mp4",
                                            path: payload), fileExtension: "mp4")
            guard delivered.wait(seconds: 300) else { throw BenchError("outbox: not delivered: \(outbox.summary.lastError)") }
            try FileManager.default.removeItem(at: stored.appendingPathComponent("\(name).mp4"))
        }
        func viaCurl() throws {
            let name = UUID().uuidString.lowercased()
            let argv = ["/usr/bin/curl", "-sS", "-f", "-o", "/dev/null", "-T", payload, "http://127.0.0.1:\(port)/dav/\(name).mp4"]
            guard try Spawn.run(argv) == 0 else { throw BenchError("\(argv.joined(separator: " ")) failed") }
            try FileManager.default.removeItem(at: stored.appendingPathComponent("\(name).mp4"))
        }
        try viaOutbox(hashKnown: true)
        try viaCurl()
        // Interleaved, so that a busy moment of the machine costs all three the same.
        var hashing: [Double] = [], known: [Double] = [], curl: [Double] = []
        for _ in 0..<runs {
            hashing += try Measure.times(runs: 1) { try viaOutbox(hashKnown: false) }
            known += try Measure.times(runs: 1) { try viaOutbox(hashKnown: true) }
            curl += try Measure.times(runs: 1) { try viaCurl() }
        }
        let (h, k, c) = (Measure.median(hashing), Measure.median(known), Measure.median(curl))
        print("outbox: \(size) bytes (\(file ?? "generated")) to nginx on 127.0.0.1 (WebDAV PUT, tmpfs); \(runs) runs each, interleaved")
        print(String(format: "lensd outbox, hashing first (video):  median %7.1f ms  (min %.1f)", h, hashing.min() ?? 0))
        print(String(format: "lensd outbox, sha256 known (photo):   median %7.1f ms  (min %.1f)", k, known.min() ?? 0))
        print(String(format: "curl -T:                              median %7.1f ms  (min %.1f)", c, curl.min() ?? 0))
        print(String(format: "ratio outbox / curl: %.2f× hashing first, %.2f× sha256 known   (goal: ≤ 1.2×)", h / c, k / c))
    }

    private func makePayload(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("payload.mp4").path
        var bytes = [UInt8](repeating: 0, count: megabytes * 1_000_000)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 13) }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { throw BenchError("outbox: cannot write \(path)") }
        return path
    }

    /// nginx on ports picked at random (another try when they are taken); ready once curl gets an answer.
    private func startNginx(in dir: URL) throws -> (Process, port: Int) {
        let prepare = Measure.repositoryRoot.appendingPathComponent("Tests/oracle/prepare_nginx.sh").path
        for _ in 0..<5 {
            let port = Int.random(in: 20_000...60_000)
            let (status, output) = try Measure.run(["/bin/bash", prepare, dir.path, "\(port)", "\(port + 1)"])
            guard status == 0 else { throw BenchError("outbox: prepare_nginx.sh failed") }
            let argv = output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").map(String.init)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: argv[0])
            process.arguments = Array(argv.dropFirst())
            try process.run()
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning && Date() < deadline {
                if try Spawn.run(["/usr/bin/curl", "-s", "-o", "/dev/null", "http://127.0.0.1:\(port)/"]) == 0 { return (process, port) }
                usleep(20_000)
            }
            if process.isRunning { process.terminate(); process.waitUntilExit() }
        }
        throw BenchError("outbox: nginx did not start (see \(dir.path)/logs)")
    }

    private static func sha256(_ path: String) throws -> String {
        let (status, output) = try Measure.run(["/usr/bin/sha256sum", path])
        guard status == 0, let hex = output.split(separator: " ").first else { throw BenchError("outbox: sha256sum failed") }
        return String(hex)
    }
}

/// The outbox thread says "delivered"; the bench waits for it.
private final class DeliveryWait: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func signal() { semaphore.signal() }
    func wait(seconds: Double) -> Bool { semaphore.wait(timeout: .now() + seconds) == .success }
}
