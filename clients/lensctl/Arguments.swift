/// A small command-line parser: positional arguments, `--flag`, `--option VALUE` / `--option=VALUE`,
/// repeatable options. Unknown options are usage errors. `--bus`, `--json` and `--help` are
/// accepted by every command.
struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// `options` take a value; `switches` do not.
    init(_ argv: [String], options: Set<String> = [], switches: Set<String> = []) throws {
        let options = options.union(["--bus"])
        let switches = switches.union(["--json", "--help"])
        var rest = argv[...]
        while let arg = rest.popFirst() {
            if arg == "--" {
                positionals += rest
                break
            }
            // "-" alone is a file name (stdin); "-0.5" a negative number, left to the command to reject.
            guard arg.hasPrefix("-"), arg != "-", Double(arg) == nil else {
                positionals.append(arg)
                continue
            }
            var name = arg
            var inlineValue: String?
            if let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inlineValue = String(arg[arg.index(after: eq)...])
            }
            if switches.contains(name), inlineValue == nil {
                flags.insert(name)
            } else if options.contains(name) {
                // `-o --json` (or `-o` last, with `--bus ADDRESS` moved behind it) lacks its value:
                // another of the command's options is not a file name.
                let nextIsOption = rest.first.map { String($0.prefix { $0 != "=" }) }
                    .map { options.contains($0) || switches.contains($0) } ?? false
                guard let value = inlineValue ?? (nextIsOption ? nil : rest.popFirst()) else {
                    throw CommandFailure(.usage, name == "-o" ? "-o needs a file name" : "option \(name) needs a value")
                }
                values[name, default: []].append(value)
            } else {
                throw CommandFailure(.usage, "unknown option \(name)")
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func all(_ option: String) -> [String] { values[option] ?? [] }
    func last(_ option: String) -> String? { values[option]?.last }

    var json: Bool { has("--json") }

    /// The positionals, exactly `count` of them, or a usage error naming what is expected.
    func positionals(_ count: Int, _ expected: String) throws -> [String] {
        guard positionals.count == count else { throw CommandFailure(.usage, "expected \(expected)") }
        return positionals
    }

    /// A number option within `range`, or nil when absent.
    func number(_ option: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = last(option) else { return nil }
        return try Self.number(text, option, in: range)
    }

    static func number(_ text: String, _ what: String, in range: ClosedRange<Double>) throws -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw CommandFailure(.usage, "\(what) must be \(describe(range)), not \(text)")
        }
        return value
    }

    private static func describe(_ range: ClosedRange<Double>) -> String {
        switch (range.lowerBound, range.upperBound) {
        case (.leastNonzeroMagnitude, .greatestFiniteMagnitude): "a number above 0"
        case (let low, .greatestFiniteMagnitude): "a number of at least \(Seconds.plain(low))"
        case (let low, let high): "a number in \(Seconds.plain(low))...\(Seconds.plain(high))"
        }
    }

    /// One of a fixed set of wire values, or nil when absent.
    func choice<T: RawRepresentable & CaseIterable>(_ option: String, _ type: T.Type) throws -> T? where T.RawValue == String {
        guard let text = last(option) else { return nil }
        return try Self.choice(text, option, type)
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ text: String, _ what: String, _ type: T.Type) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: text) else {
            throw CommandFailure(.usage, "\(what) must be \(T.allCases.map(\.rawValue).joined(separator: "|")), not \(text)")
        }
        return value
    }
}
