/// A failed H.264 encoder call, or settings or a picture the encoder cannot take.
public struct H264Error: Error, CustomStringConvertible, Sendable {
    /// OpenH264's return code (CM_RETURN: 1 invalid parameters, 2 unknown reason, 3 out of
    /// memory, …); nil when lensd refused before calling it.
    public var code: Int?
    public var description: String

    init(_ description: String, code: Int? = nil) {
        self.code = code
        self.description = code.map { "\(description) (OpenH264 error \($0))" } ?? description
    }
}
