import C2PA
import FoundationEssentials
import LensCrypto

/// Where `verify` finds whom to trust, as c2patool users expect besides the command line: every
/// `--trust-anchor FILE` and the PEM files listed in `LENSCTL_TRUST_ANCHORS` (separated by `:`,
/// as PATH is) and `$XDG_CONFIG_HOME/lensctl/trust-anchors.pem` (default `~/.config/…`); every
/// `--trust-list FILE` (LoTE JSON or PEM bundle), the lists in `LENSCTL_TRUST_LISTS` and the files
/// in `…/lensctl/trust-lists/` (TSA lists in its `tsa/`); `--tsa-trust-anchor`, `--tsa-trust-list`;
/// and a c2pa-rs trust settings file (`--trust-config`).
struct TrustSources {
    static let anchorsVariable = "LENSCTL_TRUST_ANCHORS"
    static let listsVariable = "LENSCTL_TRUST_LISTS"

    var environment = ProcessInfo.processInfo.environment

    /// The policy, and a warning for each list past its NextUpdate (such a list is still used).
    func policy(_ args: Arguments, now: Date = Date()) throws -> (policy: TrustPolicy, warnings: [String]) {
        var policy = TrustPolicy(anchors: try (args.all("--trust-anchor") + listed(Self.anchorsVariable)
                                                 + existing(configPath("trust-anchors.pem"))).flatMap(Self.certificates),
                                 timeStampAnchors: try args.all("--tsa-trust-anchor").flatMap(Self.certificates))
        policy.lists = try (args.all("--trust-list") + listed(Self.listsVariable) + files(in: configPath("trust-lists"))).map(Self.list)
        policy.timeStampLists = try (args.all("--tsa-trust-list") + files(in: configPath("trust-lists/tsa"))).map(Self.list)
        if let path = args.last("--trust-config") {
            let settings: TrustSettings
            do { settings = try TrustSettings(contents: try Output.readInput(path), source: path) } catch let error as C2PAError {
                throw CommandFailure(.unreadableInput, "trust config \(error)")
            }
            policy.anchors += settings.anchors
            policy.allowedCertificates = settings.allowedCertificates
            policy.extendedKeyUsages = settings.extendedKeyUsages
        }
        let warnings = (policy.lists + policy.timeStampLists).filter { $0.isStale(at: now) }.map { list in
            "warning: trust list \(list.name) (\(list.source)) is past its NextUpdate \(Output.iso8601(list.nextUpdate!)); "
                + "it is used, but get a current copy"
        }
        return (policy, warnings)
    }

    /// A trust list file, for `trust-list show` too.
    static func list(_ path: String) throws -> TrustList {
        do { return try TrustList(contents: try Output.readInput(path), source: path) } catch let error as C2PAError {
            throw CommandFailure(.unreadableInput, "trust list \(error)")
        }
    }

    private static func certificates(_ path: String) throws -> [Certificate] {
        let pem = String(decoding: try Output.readInput(path), as: UTF8.self)
        do {
            return try Certificate.parsePEM(pem)
        } catch {
            throw CommandFailure(.unreadableInput, "trust anchor \(path) holds no PEM certificate")
        }
    }

    private func listed(_ variable: String) -> [String] {
        (environment[variable] ?? "").split(separator: ":").map(String.init)
    }

    private func configPath(_ name: String) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return "\(config)/lensctl/\(name)" }
        return environment["HOME"].map { "\($0)/.config/lensctl/\(name)" }
    }

    private func existing(_ path: String?) -> [String] {
        path.map { FileManager.default.fileExists(atPath: $0) ? [$0] : [] } ?? []
    }

    /// The directory's .json and .pem files, in name order; none when it does not exist.
    private func files(in directory: String?) -> [String] {
        guard let directory, let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { $0.hasSuffix(".json") || $0.hasSuffix(".pem") }.sorted().map { "\(directory)/\($0)" }
    }
}
