import C2PA
import FoundationEssentials
import Glibc
import LensSystem

/// `lensctl trust-list show FILE`: what a trust list (LoTE JSON or PEM bundle) says, entity by
/// entity, so that an administrator can inspect a list before using it.
enum TrustListCommand: Command {
    static let name = "trust-list"
    static let synopsis = "trust-list show FILE  the entities, CAs and statuses of a trust list (C2PA Trust List, PEM bundle)"
    static let help = """
    usage: lensctl trust-list show FILE [--json]

    Prints a trust list as lensctl verify --trust-list reads it: its name, issue date and
    NextUpdate (a list past it is still used, with a warning), then each entity with its CA
    certificates (subject, SHA-256 fingerprint, validity) and their status on the list since when.
    FILE is an ETSI TS 119 602 list of trusted entities (JSON, as the C2PA Trust List and TSA
    Trust List are published) or a PEM bundle.

    exit: 0 ok · 2 usage · 7 unreadable or malformed list
    """

    static func run(_ argv: [String]) throws -> ExitCode {
        let args = try Arguments(argv)
        let words = try args.positionals(2, "show FILE")
        guard words[0] == "show" else { throw CommandFailure(.usage, "unknown trust-list step \(words[0]); expected show FILE") }
        let list = try TrustSources.list(words[1])
        let now = Date()
        if args.json {
            Output.json(TrustListJSON(list, now: now))
        } else {
            Output.line(text(list, now: now))
        }
        return .ok
    }

    private static func text(_ list: TrustList, now: Date) -> String {
        var lines = ["\(list.name) (\(list.source))"]
        let dates = [list.issued.map { "issued \(Output.iso8601($0))" },
                     list.nextUpdate.map { "next update \(Output.iso8601($0))" + (list.isStale(at: now) ? " — PAST: get a current copy" : "") }]
        if !dates.compactMap({ $0 }).isEmpty { lines.append("  " + dates.compactMap { $0 }.joined(separator: ", ")) }
        for entity in list.entities {
            lines.append("  \(entity.name)")
            for service in entity.services {
                let status = service.status(at: now)
                let since = status?.since.map { " since \(Output.iso8601($0))" } ?? ""
                lines.append("    \(service.name ?? "service"): \(status?.name ?? "trusted")\(since)")
                for certificate in service.certificates {
                    lines.append("      \(certificate.subject.oneLine)")
                    lines.append("        sha256 \(certificate.sha256Fingerprint.map { String(cFormat: "%02x", $0) }.joined()), "
                        + "valid \(Output.iso8601(certificate.notBefore)) – \(Output.iso8601(certificate.notAfter))")
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// The `trust-list show --json` shape.
struct TrustListJSON: Encodable {
    struct Certificate: Encodable {
        var subject: String
        var sha256: String
        var not_before: Date
        var not_after: Date
    }

    struct Status: Encodable {
        var status: String
        var uri: String
        var since: Date?
    }

    struct Service: Encodable {
        var name: String?
        /// The status in force now.
        var status: String
        var history: [Status]
        var certificates: [Certificate]
    }

    struct Entity: Encodable {
        var name: String
        var services: [Service]
    }

    var name: String
    var source: String
    var issued: Date?
    var next_update: Date?
    var stale: Bool
    var entities: [Entity]

    init(_ list: TrustList, now: Date) {
        (name, source, issued, next_update, stale) = (list.name, list.source, list.issued, list.nextUpdate, list.isStale(at: now))
        entities = list.entities.map { entity in
            Entity(name: entity.name, services: entity.services.map { service in
                Service(name: service.name, status: service.status(at: now)?.name ?? "trusted",
                        history: service.statuses.map { Status(status: $0.name, uri: $0.uri, since: $0.since) },
                        certificates: service.certificates.map {
                            Certificate(subject: $0.subject.oneLine, sha256: $0.sha256Fingerprint.map { String(cFormat: "%02x", $0) }.joined(),
                                        not_before: $0.notBefore, not_after: $0.notAfter)
                        })
            })
        }
    }
}
