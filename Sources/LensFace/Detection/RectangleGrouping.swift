/// OpenCV's groupRectangles: candidates are partitioned into classes of similar rectangles
/// (transitively), each class is averaged, classes with `minNeighbors` or fewer members are
/// dropped, and so is a class inside a stronger one. The member count is the confidence.
enum RectangleGrouping {
    static func group(_ rectangles: [FaceRectangle], minNeighbors: Int, eps: Double = 0.2)
        -> [(rectangle: FaceRectangle, neighbours: Int)] {
        guard minNeighbors > 0, !rectangles.isEmpty else { return rectangles.map { ($0, 1) } }
        let labels = partition(rectangles, eps: eps)
        let classCount = (labels.max() ?? -1) + 1
        var sums = [(x: Int, y: Int, width: Int, height: Int)](repeating: (0, 0, 0, 0), count: classCount)
        var counts = [Int](repeating: 0, count: classCount)
        for (rectangle, label) in zip(rectangles, labels) {
            sums[label].x += rectangle.x
            sums[label].y += rectangle.y
            sums[label].width += rectangle.width
            sums[label].height += rectangle.height
            counts[label] += 1
        }
        let averages = zip(sums, counts).map { sum, count in
            // As OpenCV: multiply by a Float reciprocal, round half to even.
            let s = 1 / Float(count)
            func round(_ value: Int) -> Int { Int((Float(value) * s).rounded(.toNearestOrEven)) }
            return FaceRectangle(x: round(sum.x), y: round(sum.y), width: round(sum.width), height: round(sum.height))
        }
        return (0..<classCount).compactMap { i in
            let r1 = averages[i], n1 = counts[i]
            guard n1 > minNeighbors else { return nil }
            let inside = (0..<classCount).contains { j in
                let n2 = counts[j]
                guard j != i, n2 > minNeighbors else { return false }
                let r2 = averages[j]
                let dx = Int((Double(r2.width) * eps).rounded(.toNearestOrEven))
                let dy = Int((Double(r2.height) * eps).rounded(.toNearestOrEven))
                return r1.x >= r2.x - dx && r1.y >= r2.y - dy && r1.x + r1.width <= r2.x + r2.width + dx
                    && r1.y + r1.height <= r2.y + r2.height + dy && (n2 > max(3, n1) || n1 < 3)
            }
            return inside ? nil : (r1, n1)
        }
    }

    /// Class labels numbered in order of first appearance, from a union-find over the
    /// similarity relation (OpenCV's cv::partition with SimilarRects).
    private static func partition(_ rectangles: [FaceRectangle], eps: Double) -> [Int] {
        var parent = Array(rectangles.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        for i in rectangles.indices {
            for j in rectangles.indices where j > i && similar(rectangles[i], rectangles[j], eps: eps) {
                let a = root(i), b = root(j)
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        var labelOfRoot: [Int: Int] = [:]
        return rectangles.indices.map { i in
            let r = root(i)
            if let label = labelOfRoot[r] { return label }
            labelOfRoot[r] = labelOfRoot.count
            return labelOfRoot[r]!
        }
    }

    private static func similar(_ r1: FaceRectangle, _ r2: FaceRectangle, eps: Double) -> Bool {
        let delta = eps * Double(min(r1.width, r2.width) + min(r1.height, r2.height)) * 0.5
        return Double(abs(r1.x - r2.x)) <= delta && Double(abs(r1.y - r2.y)) <= delta
            && Double(abs(r1.x + r1.width - r2.x - r2.width)) <= delta
            && Double(abs(r1.y + r1.height - r2.y - r2.height)) <= delta
    }
}
