import Foundation

/// `memory`: lensd's resident memory at start-up and after N one-shot `lensctl capture`s, as a
/// user runs it (the build beside lens-bench, synthetic camera at 1080p), split into lensd's own
/// image, the shared libraries it loads and anonymous memory (heap, stacks, buffers); beside it,
/// the dbus-daemon serving the same bus, a small C daemon, as the reference.
struct MemoryBench {
    var captures = 220

    init(_ argv: [String]) throws {
        var rest = argv[...]
        while let arg = rest.popFirst() {
            switch arg {
            case "--captures": captures = Int(rest.popFirst() ?? "") ?? -1
            default: throw BenchError("usage: \(usage)")
            }
        }
        guard captures >= 1 else { throw BenchError("--captures must be at least 1") }
    }

    func run() throws {
        try LocalDaemon.require(["lensd", "lensctl"], for: "memory")
        let local = try LocalDaemon()
        defer { local.stop() }
        let dir = try Measure.tmpfsDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lensd = local.lensd.processIdentifier
        let atStart = try Footprint(pid: lensd)
        let capture = [LocalDaemon.binaries.appendingPathComponent("lensctl").path, "--bus", local.address,
                       "capture", "-o", dir.appendingPathComponent("photo.jpg").path, "--force"]
        for index in 1...captures where try Spawn.run(capture) != 0 {
            throw BenchError("capture \(index): \(capture.joined(separator: " ")) failed")
        }
        let after = try Footprint(pid: lensd)
        let bus = try Footprint(pid: local.bus.processIdentifier)

        print("lensd: \(LocalDaemon.binaries.appendingPathComponent("lensd").path), synthetic camera 1920x1080; MB")
        print("                                     start  after \(captures) captures")
        for (label, value) in [("RSS (goal ≤ 25)", \Footprint.rss), ("  lensd's own image (code, data)", \.image),
                               ("  shared libraries", \.libraries), ("  anonymous (heap, stacks, buffers)", \.anonymous),
                               ("PSS (shared pages split)", \.pss), ("USS (private pages)", \.uss)] {
            print(label.padding(toLength: 36, withPad: " ", startingAt: 0)
                  + String(format: "%6.1f  %6.1f", Self.megabytes(atStart[keyPath: value]), Self.megabytes(after[keyPath: value])))
        }
        let largest = after.libraryRSS.sorted { $0.value > $1.value }.prefix(6)
            .map { String(format: "%@ %.1f", $0.key, Self.megabytes($0.value)) }
        print("largest libraries: \(largest.joined(separator: ", "))")
        print(String(format: "reference: the dbus-daemon serving this bus: RSS %.1f, anonymous %.1f",
                     Self.megabytes(bus.rss), Self.megabytes(bus.anonymous)))
    }

    private static func megabytes(_ kiB: Int) -> Double { Double(kiB) / 1024 }
}

/// One process's resident memory from /proc/PID/smaps, in KiB.
struct Footprint {
    private(set) var rss = 0, pss = 0, uss = 0
    /// Mapped from the process's own executable.
    private(set) var image = 0
    private(set) var libraries = 0
    private(set) var anonymous = 0
    private(set) var libraryRSS: [String: Int] = [:]

    init(pid: Int32) throws {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        // Read to the end: /proc files report a size of 0.
        guard let file = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps"),
              let smaps = String(data: try file.readToEnd() ?? Data(), encoding: .utf8) else {
            throw BenchError("cannot read /proc/\(pid)/smaps")
        }
        try file.close()
        var path = ""
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let key = fields.first else { continue }
            if key.contains("-"), fields.count >= 5 {
                // A mapping's header: range, permissions, offset, device, inode, and its path if any.
                path = fields.count > 5 ? fields[5...].joined(separator: " ") : ""
                continue
            }
            guard fields.count >= 2, let kiB = Int(fields[1]) else { continue }
            switch key {
            case "Rss:":
                rss += kiB
                if path.hasPrefix(executable) {
                    image += kiB
                } else if path.hasPrefix("/") {
                    libraries += kiB
                    libraryRSS[String(path.split(separator: "/").last ?? ""), default: 0] += kiB
                } else {
                    anonymous += kiB
                }
            case "Pss:": pss += kiB
            case "Private_Clean:", "Private_Dirty:": uss += kiB
            default: break
            }
        }
    }
}
