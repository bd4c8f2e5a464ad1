import Foundation

enum Measure {
    /// Runs `body` `runs` times and returns each duration in milliseconds; `prepare` runs before
    /// each, untimed.
    static func times(runs: Int, prepare: () -> Void = {}, _ body: () throws -> Void) rethrows -> [Double] {
        let clock = ContinuousClock()
        return try (0..<runs).map { _ in
            prepare()
            let elapsed = try clock.measure(body)
            return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        }
    }

    /// `--size WIDTHxHEIGHT`, each side within `sides`.
    static func size(_ text: String?, sides: ClosedRange<Int> = 16...8192) throws -> (width: Int, height: Int) {
        let parts = (text ?? "").split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy(sides.contains) else {
            throw BenchError("--size WIDTHxHEIGHT, \(sides.lowerBound)...\(sides.upperBound) each")
        }
        return (parts[0], parts[1])
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// The repository root: lens-bench runs from `.build/<config>/`, scripts live beside it.
    static var repositoryRoot: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    /// A fresh directory on tmpfs, so the disk does not enter the figures.
    static func tmpfsDirectory() throws -> URL {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: base).appendingPathComponent("lens-bench-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func run(_ argv: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
