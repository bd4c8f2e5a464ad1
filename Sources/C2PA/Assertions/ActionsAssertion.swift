import FoundationEssentials

/// `c2pa.actions.v2` for a fresh capture: one `c2pa.created` action saying when and how.
public struct ActionsAssertion: Assertion {
    public enum DigitalSourceType: String, Sendable {
        case digitalCapture = "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"
        case algorithmicMedia = "http://cv.iptc.org/newscodes/digitalsourcetype/algorithmicMedia"
    }

    public var when: Date
    public var digitalSourceType: DigitalSourceType
    public var label: String { Labels.actions }

    public init(when: Date, digitalSourceType: DigitalSourceType) {
        self.when = when
        self.digitalSourceType = digitalSourceType
    }

    public func content() throws -> AssertionContent {
        let created = CBOR.textMap([
            ("action", .text(Labels.createdAction)),
            ("digitalSourceType", .text(digitalSourceType.rawValue)),
            // Tag 0: an RFC 3339 date/time string.
            ("when", .tagged(0, .text(Timestamps.rfc3339UTC(when)))),
        ])
        return .cbor(Self.complete([created]))
    }

    /// An actions map that says it lists every action taken (C2PA 2.4 §18.15.3): lensd records all
    /// it does, and the Conformance Program requires the field (`mandatory_all_actions_included`).
    static func complete(_ actions: [CBOR]) -> CBOR {
        .textMap([("actions", .array(actions)), ("allActionsIncluded", .bool(true))])
    }
}
