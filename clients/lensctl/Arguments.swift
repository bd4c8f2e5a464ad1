/// A small command-line parser: positional arguments, `--flag`, `--option VALUE` / `--option=VALUE`,
/// repeatable options. Unknown options are usage errors.
struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// `options` take a value; `switches` do not.
    init(_ argv: [String], options: Set<String>, switches: Set<String>) throws {
        var rest = argv[...]
        while let arg = rest.popFirst() {
            if arg == "--" {
                positionals += rest
                break
            }
            guard arg.hasPrefix("-"), arg != "-" else {
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
                guard let value = inlineValue ?? rest.popFirst() else {
                    throw CommandFailure(.usage, "option \(name) needs a value")
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
}
