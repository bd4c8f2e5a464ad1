import FoundationEssentials

/// One CAWG identity assertion checked on its own, for tools and fuzzing: what lensd reports of
/// the assertion's CBOR inside a claim that references exactly `claimReferences`.
public enum CAWGIdentity {
    /// The statuses, and whether the assertion loads at all (c2pa-rs fails the manifest when not).
    public static func validate(assertion cbor: [UInt8], claimReferences: [HashedURI] = [], now: Date = Date())
        -> (loads: Bool, statuses: [ValidationStatus]) {
        let box = JUMBFSuperbox(description: JUMBFDescription(type: .cbor, label: Labels.identity), children: [.content(type: "cbor", payload: cbor)])
        var log = StatusLog()
        let outcome = IdentityCheck(now: now, claimReferences: claimReferences).check(box, url: "self#jumbf=/c2pa/fuzz/c2pa.assertions/cawg.identity", log: &log)
        return (outcome != nil, log.statuses)
    }
}
