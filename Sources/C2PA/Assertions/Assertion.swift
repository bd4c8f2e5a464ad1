/// A created assertion: a label and the content box that goes into its JUMBF superbox.
public protocol Assertion: Sendable {
    var label: String { get }
    func content() throws -> AssertionContent
}

/// An assertion whose content names assertions written before it in the same manifest, by
/// hashed URI (an action's `ingredients` parameter): the writer passes their references.
public protocol ReferencingAssertion: Assertion {
    func content(referencing earlier: [HashedURI]) throws -> AssertionContent
}

extension ReferencingAssertion {
    public func content() throws -> AssertionContent { try content(referencing: []) }
}

public enum AssertionContent: Sendable {
    case cbor(CBOR)
    case json([UInt8])
    case embeddedFile(mediaType: String, data: [UInt8])

    var jumbfType: JUMBFType {
        switch self {
        case .cbor: return .cbor
        case .json: return .json
        case .embeddedFile: return .embeddedFile
        }
    }

    var boxes: [JUMBFNode] {
        switch self {
        case .cbor(let value): return [.content(type: "cbor", payload: value.encoded())]
        case .json(let bytes): return [.content(type: "json", payload: bytes)]
        case .embeddedFile(let mediaType, let data):
            // bfdb: toggles (0: no file name, not external), media type, NUL.
            return [.content(type: "bfdb", payload: [0] + Array(mediaType.utf8) + [0]),
                    .content(type: "bidb", payload: data)]
        }
    }
}
