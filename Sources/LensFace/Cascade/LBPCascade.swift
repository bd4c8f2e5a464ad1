/// An OpenCV LBP cascade ("new format" XML: `<cascade>`, BOOST stages of stumps over
/// multi-block LBP features with 256-category subsets), checked so that evaluating it can
/// never read outside its window: every feature's 3×3 grid lies inside the window, every
/// stump names an existing feature.
public struct LBPCascade: Sendable {
    /// A 3×3 grid of `width`×`height` cells whose top-left corner is at (x, y) in the window.
    struct Feature: Sendable, Equatable {
        var x: Int, y: Int, width: Int, height: Int
    }

    struct Stage: Sendable {
        /// Its stumps are `firstStump..<firstStump + stumpCount`.
        var firstStump: Int
        var stumpCount: Int
        /// The XML's stageThreshold less OpenCV's THRESHOLD_EPS (1e-5, in Float as OpenCV does).
        var threshold: Float
    }

    /// The detection window the cascade was trained on (24×24 for the frontal-face file).
    public let windowWidth: Int
    public let windowHeight: Int
    let features: [Feature]
    let stages: [Stage]
    /// Per stump: the feature it reads.
    let stumpFeatures: [Int32]
    /// Per stump: 8 words, a 256-bit set of the LBP codes that take the first leaf.
    let stumpSubsets: [Int32]
    /// Per stump: two leaf values (code in the subset, code not in it).
    let stumpLeaves: [Float]

    /// How big the model is: stages, weak classifiers (stumps) and features.
    public var shape: (stages: Int, stumps: Int, features: Int) { (stages.count, stumpFeatures.count, features.count) }

    /// Debian's opencv-data installs the frontal-face model here.
    public static let defaultPath = "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml"

    static let maximumWindow = 64
    static let maximumStages = 1_000
    static let maximumStumps = 100_000
    static let maximumFeatures = 100_000
    static let subsetWords = 8

    /// Reads a cascade file; a missing or unreadable file and every defect of its content
    /// are a CascadeError naming the path.
    public init(contentsOf path: String) throws(CascadeError) {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, limit: BoundedXML.Limits().bytes)
        } catch {
            throw CascadeError("\(path): \(error)")
        }
        do {
            try self.init(xml: bytes)
        } catch {
            throw CascadeError("\(path): \(error.description)")
        }
    }

    public init(xml bytes: [UInt8]) throws(CascadeError) {
        let document = try BoundedXML(bytes).root
        guard document.name == "opencv_storage", let cascade = document.child("cascade") else {
            throw CascadeError("not an OpenCV cascade: expected <opencv_storage><cascade>")
        }
        let stageType = try Self.word(cascade, "stageType"), featureType = try Self.word(cascade, "featureType")
        guard stageType == "BOOST" else { throw CascadeError("stageType \(stageType) is not supported (only BOOST)") }
        guard featureType == "LBP" else { throw CascadeError("featureType \(featureType) is not supported (only LBP)") }
        windowWidth = try Self.integer(cascade, "width", in: 1...Self.maximumWindow)
        windowHeight = try Self.integer(cascade, "height", in: 1...Self.maximumWindow)
        guard let featureParams = cascade.child("featureParams") else { throw CascadeError("<featureParams> is missing") }
        guard try Self.integer(featureParams, "maxCatCount", in: 0...Int(Int32.max)) == 256 else {
            throw CascadeError("maxCatCount must be 256 for LBP features")
        }
        features = try Self.features(cascade, windowWidth: windowWidth, windowHeight: windowHeight)
        var stages: [Stage] = [], stumpFeatures: [Int32] = [], stumpSubsets: [Int32] = [], stumpLeaves: [Float] = []
        guard let stagesNode = cascade.child("stages"), !stagesNode.children.isEmpty else {
            throw CascadeError("<stages> is missing or empty")
        }
        guard stagesNode.children.count <= Self.maximumStages else {
            throw CascadeError("\(stagesNode.children.count) stages; at most \(Self.maximumStages) are accepted")
        }
        for (index, stageNode) in stagesNode.children.enumerated() {
            let context = "stage \(index)"
            let threshold = try Self.float(stageNode, "stageThreshold", context)
            guard let weak = stageNode.child("weakClassifiers"), !weak.children.isEmpty else {
                throw CascadeError("\(context): <weakClassifiers> is missing or empty")
            }
            guard stumpFeatures.count + weak.children.count <= Self.maximumStumps else {
                throw CascadeError("more than \(Self.maximumStumps) weak classifiers")
            }
            stages.append(Stage(firstStump: stumpFeatures.count, stumpCount: weak.children.count,
                                threshold: threshold - 1e-5))
            for (treeIndex, tree) in weak.children.enumerated() {
                let stump = try Self.stump(tree, featureCount: features.count, "\(context), tree \(treeIndex)")
                stumpFeatures.append(stump.feature)
                stumpSubsets += stump.subset
                stumpLeaves += stump.leaves
            }
        }
        self.stages = stages
        self.stumpFeatures = stumpFeatures
        self.stumpSubsets = stumpSubsets
        self.stumpLeaves = stumpLeaves
    }

    private static func features(_ cascade: BoundedXML.Element, windowWidth: Int, windowHeight: Int) throws(CascadeError) -> [Feature] {
        guard let node = cascade.child("features"), !node.children.isEmpty else {
            throw CascadeError("<features> is missing or empty")
        }
        guard node.children.count <= maximumFeatures else {
            throw CascadeError("\(node.children.count) features; at most \(maximumFeatures) are accepted")
        }
        var features: [Feature] = []
        for (index, featureNode) in node.children.enumerated() {
            guard let rect = featureNode.child("rect") else { throw CascadeError("feature \(index): <rect> is missing") }
            let numbers = try NumberList.integers(rect.text, "feature \(index) <rect>")
            guard numbers.count == 4 else { throw CascadeError("feature \(index): <rect> needs 4 numbers, has \(numbers.count)") }
            let feature = Feature(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
            guard feature.x >= 0, feature.y >= 0, feature.width >= 1, feature.height >= 1,
                  feature.x + 3 * feature.width <= windowWidth, feature.y + 3 * feature.height <= windowHeight else {
                throw CascadeError("feature \(index): the 3×3 grid at \(numbers) leaves the \(windowWidth)×\(windowHeight) window")
            }
            features.append(feature)
        }
        return features
    }

    /// A one-node tree: `internalNodes` = left right featureIndex + 8 subset words, two leaves.
    private static func stump(_ tree: BoundedXML.Element, featureCount: Int, _ context: String) throws(CascadeError)
        -> (feature: Int32, subset: [Int32], leaves: [Float]) {
        guard let nodes = tree.child("internalNodes"), let leafNode = tree.child("leafValues") else {
            throw CascadeError("\(context): <internalNodes> or <leafValues> is missing")
        }
        let numbers = try NumberList.integers(nodes.text, "\(context) <internalNodes>")
        guard numbers.count == 3 + subsetWords else {
            throw CascadeError("\(context): only single-node trees (stumps) are supported: <internalNodes> has \(numbers.count) numbers, not \(3 + subsetWords)")
        }
        guard numbers[0] == 0, numbers[1] == -1 else {
            throw CascadeError("\(context): a stump's node must read '0 -1', not '\(numbers[0]) \(numbers[1])'")
        }
        guard (0..<featureCount).contains(numbers[2]) else {
            throw CascadeError("\(context): feature \(numbers[2]) does not exist (\(featureCount) features)")
        }
        var subset: [Int32] = []
        for word in numbers[3...] {
            guard let value = Int32(exactly: word) else { throw CascadeError("\(context): subset word \(word) is not a 32-bit integer") }
            subset.append(value)
        }
        let leaves = try NumberList.floats(leafNode.text, "\(context) <leafValues>")
        guard leaves.count == 2 else { throw CascadeError("\(context): <leafValues> needs 2 numbers, has \(leaves.count)") }
        return (Int32(numbers[2]), subset, leaves)
    }

    private static func word(_ node: BoundedXML.Element, _ name: String) throws(CascadeError) -> String {
        guard let child = node.child(name) else { throw CascadeError("<\(name)> is missing") }
        return String(decoding: child.text.filter { !Whitespace.contains($0) }.prefix(32), as: UTF8.self)
    }

    private static func integer(_ node: BoundedXML.Element, _ name: String, in range: ClosedRange<Int>) throws(CascadeError) -> Int {
        guard let child = node.child(name) else { throw CascadeError("<\(name)> is missing") }
        let numbers = try NumberList.integers(child.text, "<\(name)>")
        guard numbers.count == 1, range.contains(numbers[0]) else {
            throw CascadeError("<\(name)> must be one integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return numbers[0]
    }

    private static func float(_ node: BoundedXML.Element, _ name: String, _ context: String) throws(CascadeError) -> Float {
        guard let child = node.child(name) else { throw CascadeError("\(context): <\(name)> is missing") }
        let numbers = try NumberList.floats(child.text, "\(context) <\(name)>")
        guard numbers.count == 1 else { throw CascadeError("\(context): <\(name)> must be one number") }
        return numbers[0]
    }
}
