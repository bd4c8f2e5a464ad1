import C2PA
import Foundation
import LensCrypto

/// `verify`: lensd's verifier vs. c2pa-python's Reader, both in-process on the same files (read
/// from tmpfs), side by side with the ratio and each one's verdict; then a one-shot
/// `lensctl verify` (posix_spawn to exit, process start included) on each file.
struct VerifyBench {
    var anchor: String?
    var runs = 11
    var files: [String] = []

    init(_ argv: [String]) throws {
        var rest = argv[...]
        while let arg = rest.popFirst() {
            switch arg {
            case "--trust-anchor": anchor = rest.popFirst()
            case "--runs": runs = Int(rest.popFirst() ?? "") ?? 0
            default: files.append(arg)
            }
        }
        guard !files.isEmpty, runs > 0 else { throw BenchError("usage: \(usage)") }
    }

    func run() throws {
        let dir = try Measure.tmpfsDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let copies = try files.enumerated().map { index, file in
            let copy = dir.appendingPathComponent("\(index)-\(URL(fileURLWithPath: file).lastPathComponent)").path
            try FileManager.default.copyItem(atPath: file, toPath: copy)
            return copy
        }
        let anchors = try anchor.map { try Certificate.parsePEM(try String(contentsOfFile: $0, encoding: .utf8)) } ?? []
        let verifier = Verifier(trustAnchors: anchors)
        let reference = try referenceMedians(copies)
        let lensctl = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("lensctl").path

        print("\(runs) runs each, medians, files on tmpfs; trust anchor: \(anchor ?? "none")")
        print("file".padding(toLength: 34, withPad: " ", startingAt: 0) + "     bytes      lensd  c2pa-python   ratio  lensctl one-shot  verdicts")
        for (file, copy) in zip(files, copies) {
            var state = ""
            let own = Measure.median(try Measure.times(runs: runs) { state = try verifier.verify(fileAt: copy, mapping: true).state.rawValue })
            let theirs = reference.map { $0[copy] }
            let oneShot = FileManager.default.isExecutableFile(atPath: lensctl)
                ? Measure.median(try Measure.times(runs: runs) {
                    let status = try Spawn.run(oneShotArguments(lensctl, copy))
                    guard status == 0 else { throw BenchError("lensctl verify \(copy) exited \(status)") }
                })
                : nil
            let size = try FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int ?? 0
            let name = URL(fileURLWithPath: file).lastPathComponent
            var line = name.padding(toLength: 34, withPad: " ", startingAt: 0) + String(format: "%10d %8.2f ms", size, own)
            if let theirs = theirs ?? nil {
                line += String(format: " %8.2f ms  %5.2fx", theirs.ms, own / theirs.ms)
            } else {
                line += "          n/a     n/a"
            }
            line += oneShot.map { String(format: " %12.2f ms", $0) } ?? "              n/a"
            line += "  lensd \(state), c2pa-python \((theirs ?? nil)?.state ?? "n/a")"
            print(line)
        }
    }

    private func oneShotArguments(_ lensctl: String, _ file: String) -> [String] {
        [lensctl, "verify", file] + (anchor.map { ["--trust-anchor", $0] } ?? [])
    }

    /// c2pa-python times itself in one process, so its interpreter start-up stays out of the figures.
    private func referenceMedians(_ files: [String]) throws -> [String: (ms: Double, state: String)]? {
        let root = Measure.repositoryRoot
        let python = root.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else { return nil }
        let script = root.appendingPathComponent("scripts/bench/c2pa_python_verify.py").path
        let result = try Measure.run([python, script] + files + (anchor.map { ["--trust-anchor", $0] } ?? []) + ["--runs", String(runs)])
        let lines = result.output.split(separator: "\n")
        guard result.status == 0, lines.count == files.count else { throw BenchError("c2pa-python benchmark failed: \(result.output)") }
        var medians: [String: (ms: Double, state: String)] = [:]
        for (file, line) in zip(files, lines) {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let ms = Double(parts[0]) else { throw BenchError("c2pa-python said: \(line)") }
            medians[file] = (ms, String(parts[1]))
        }
        return medians
    }
}
