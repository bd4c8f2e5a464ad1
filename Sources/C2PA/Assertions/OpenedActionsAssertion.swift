/// `c2pa.actions.v2` of an update manifest: one `c2pa.opened` action on the parent ingredient
/// written before it (C2PA 2.4 §18.15.3: a manifest that opens and re-saves an asset without
/// changing it), so that the update too says what it did, completely. No digitalSourceType: an
/// update makes no claim about how the content came to be.
public struct OpenedActionsAssertion: ReferencingAssertion {
    public var label: String { Labels.actions }

    public init() {}

    public func content(referencing earlier: [HashedURI]) throws -> AssertionContent {
        guard let parent = earlier.last(where: { $0.assertionTarget.map { Labels.base($0.label) } == Labels.ingredient }) else {
            throw C2PAError.malformed("a c2pa.opened action needs its parent ingredient written before it")
        }
        let opened = CBOR.textMap([
            ("action", .text(Labels.openedAction)),
            ("parameters", .textMap([("ingredients", .array([parent.cbor]))])),
        ])
        return .cbor(ActionsAssertion.complete([opened]))
    }
}
