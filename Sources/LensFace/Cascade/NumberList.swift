/// Whitespace-separated numbers in an element's text, each token bounded in length so a
/// hostile file cannot hand the number parser megabytes.
enum NumberList {
    static let maximumTokenLength = 40

    static func integers(_ text: [UInt8], _ context: String) throws(CascadeError) -> [Int] {
        var result: [Int] = []
        for token in try tokens(text, context) {
            guard let value = Int(token) else { throw CascadeError("\(context): '\(token)' is not an integer") }
            result.append(value)
        }
        return result
    }

    /// Finite 32-bit floats, as OpenCV stores leaves and thresholds.
    static func floats(_ text: [UInt8], _ context: String) throws(CascadeError) -> [Float] {
        var result: [Float] = []
        for token in try tokens(text, context) {
            guard let value = Float(token), value.isFinite else { throw CascadeError("\(context): '\(token)' is not a finite number") }
            result.append(value)
        }
        return result
    }

    private static func tokens(_ text: [UInt8], _ context: String) throws(CascadeError) -> [String] {
        var tokens: [String] = []
        for slice in text.split(whereSeparator: Whitespace.contains) {
            guard slice.count <= maximumTokenLength else {
                throw CascadeError("\(context): a number longer than \(maximumTokenLength) characters")
            }
            tokens.append(String(decoding: slice, as: UTF8.self))
        }
        return tokens
    }
}
