/// Every C2PA label lensd writes or reads, in one place.
public enum Labels {
    public static let manifestStore = "c2pa"
    public static let assertionStore = "c2pa.assertions"
    public static let claimV2 = "c2pa.claim.v2"
    public static let claimV1 = "c2pa.claim"
    public static let signature = "c2pa.signature"

    public static let actions = "c2pa.actions.v2"
    public static let metadata = "c2pa.metadata"
    public static let dataHash = "c2pa.hash.data"
    /// Base label of the BMFF hard binding (plain v1, .v2, .v3; spec 2.0 removed v1, c2pa-rs still reads it).
    public static let bmffHash = "c2pa.hash.bmff"
    public static let boxesHash = "c2pa.hash.boxes"
    public static let ingredient = "c2pa.ingredient"
    public static let ingredientV3 = "c2pa.ingredient.v3"
    public static let timeStamp = "c2pa.time-stamp"
    /// A CAWG identity assertion.
    public static let identity = "cawg.identity"
    public static let bmffHashV3 = "c2pa.hash.bmff.v3"
    public static let thumbnailClaimJPEG = "c2pa.thumbnail.claim.jpeg"
    /// lensd's own metadata assertion: the capturing device's identity.
    public static let cameraMetadata = "org.lensd.camera.metadata"

    /// Actions lensd writes: a capture's inception, and an update manifest's re-save of its parent.
    public static let createdAction = "c2pa.created"
    public static let openedAction = "c2pa.opened"

    /// Strips the version and instance suffixes: "c2pa.actions.v2" and "c2pa.actions__1" → "c2pa.actions".
    public static func base(_ label: String) -> String {
        var parts = label.split(separator: "__", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .split(separator: ".", omittingEmptySubsequences: false)
        if let last = parts.last, last.count > 1, last.first == "v", last.dropFirst().allSatisfy(\.isNumber) {
            parts.removeLast()
        }
        return parts.joined(separator: ".")
    }
}
