/// One user's share of the free space (issue 35.5): no user may hold more than half of what is
/// free above min-free-bytes, counting their own results as free, so one member recording on a
/// small disk leaves room for the others (each later one to half of what is left, and so on).
public struct FreeSpaceShare: Equatable, Sendable {
    /// The bytes of the user's results.
    public let used: Int64
    /// What the file system has free above min-free-bytes now.
    public let freeAboveMinimum: Int64

    public init(used: Int64, freeAboveMinimum: Int64) {
        self.used = used
        self.freeAboveMinimum = freeAboveMinimum
    }

    /// The most the user's results may take.
    public var share: Int64 { max(0, freeAboveMinimum + used) / 2 }

    /// What the user may still add; zero or less: no new capture.
    public var room: Int64 { share - used }

    /// The owner's error when there is no room.
    public var refusal: String {
        "your results take \(used) bytes, your share of the free space (half of the \(freeAboveMinimum + used) bytes above "
            + "min-free-bytes, yours included): remove some of them (lensctl rm NAME) to capture again"
    }
}
