import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LensTestSupport

/// dbus/org.lensd.Lens1.xml read as data: the members tests go through one by one.
struct Contract {
    struct Member: Equatable, CustomStringConvertible {
        enum Kind: String { case method, property, signal }
        var interface: String
        var kind: Kind
        var name: String
        /// Method: in-args then out-args as "direction type name"; property: "access type"; signal: "type name".
        var details: [String]
        var annotations: [String]
        var description: String { "\(interface).\(name) (\(kind.rawValue)) \(details) \(annotations)" }

        var inSignature: String {
            details.filter { $0.hasPrefix("in ") }.map { $0.split(separator: " ")[1] }.joined()
        }
    }

    var members: [Member]
    /// The comment right before each member ("Interface.Member" → text), gdbus-codegen's doc format.
    var documentation: [String: String]

    init(xml data: Data) throws {
        let parser = XMLParser(data: data)
        let collector = Collector()
        parser.delegate = collector
        guard parser.parse() else { throw TestToolError("cannot parse introspection XML: \(String(describing: parser.parserError))") }
        members = collector.members
        documentation = collector.documentation
    }

    static func shipped() throws -> Contract {
        try Contract(xml: Data(contentsOf: TestTools.repoRoot.appendingPathComponent("dbus/org.lensd.Lens1.xml")))
    }

    func members(of interface: String) -> [Member] { members.filter { $0.interface == interface } }

    private final class Collector: NSObject, XMLParserDelegate {
        var members: [Member] = []
        var documentation: [String: String] = [:]
        private var interface = ""
        private var current: Member?
        private var lastComment: String?

        func parser(_ parser: XMLParser, foundComment comment: String) { lastComment = comment }

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if ["method", "signal", "property"].contains(element), let lastComment {
                documentation["\(interface).\(attributes["name"] ?? "")"] = lastComment
            }
            if element != "arg" && element != "annotation" { lastComment = nil }
            switch element {
            case "interface": interface = attributes["name"] ?? ""
            case "method", "signal":
                current = Member(interface: interface, kind: element == "method" ? .method : .signal,
                                 name: attributes["name"] ?? "", details: [], annotations: [])
            case "property":
                current = Member(interface: interface, kind: .property, name: attributes["name"] ?? "",
                                 details: ["\(attributes["access"] ?? "") \(attributes["type"] ?? "")"], annotations: [])
            case "arg":
                let direction = current?.kind == .method ? "\(attributes["direction"] ?? "in") " : ""
                current?.details.append("\(direction)\(attributes["type"] ?? "") \(attributes["name"] ?? "")")
            case "annotation":
                current?.annotations.append("\(attributes["name"] ?? "")=\(attributes["value"] ?? "")")
            default: break
            }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            if ["method", "signal", "property"].contains(element), let member = current {
                members.append(member)
                current = nil
            }
        }
    }
}
