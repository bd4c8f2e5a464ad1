/// One lensctl subcommand: its name, its help, and what it does.
protocol Command: SendableMetatype {
    static var name: String { get }
    /// Its line in `lensctl --help`.
    static var synopsis: String { get }
    /// `lensctl NAME --help`: what it does, its options, what it prints.
    static var help: String { get }
    static func run(_ argv: [String]) throws -> ExitCode
}
