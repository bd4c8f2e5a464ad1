import Foundation
import LensCrypto

/// Where `verify` finds the roots to trust, as c2patool users expect besides the command line:
/// every `--trust-anchor FILE`, the PEM files listed in `LENSCTL_TRUST_ANCHORS` (separated by
/// `:`, as PATH is), and `$XDG_CONFIG_HOME/lensctl/trust-anchors.pem` (default
/// `~/.config/lensctl/trust-anchors.pem`) when it exists.
enum TrustAnchorSources {
    static let environmentVariable = "LENSCTL_TRUST_ANCHORS"

    static func anchors(options: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [Certificate] {
        let listed = (environment[environmentVariable] ?? "").split(separator: ":").map(String.init)
        let configured = configFile(environment).map { FileManager.default.fileExists(atPath: $0) ? [$0] : [] } ?? []
        return try (options + listed + configured).flatMap(read)
    }

    private static func configFile(_ environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return "\(config)/lensctl/trust-anchors.pem" }
        return environment["HOME"].map { "\($0)/.config/lensctl/trust-anchors.pem" }
    }

    /// The certificates of each PEM file named (`--tsa-trust-anchor`).
    static func read(_ paths: [String]) throws -> [Certificate] {
        try paths.flatMap(read)
    }

    private static func read(_ path: String) throws -> [Certificate] {
        let pem = String(decoding: try Output.readInput(path), as: UTF8.self)
        do {
            return try Certificate.parsePEM(pem)
        } catch {
            throw CommandFailure(.unreadableInput, "trust anchor \(path) holds no PEM certificate")
        }
    }
}
