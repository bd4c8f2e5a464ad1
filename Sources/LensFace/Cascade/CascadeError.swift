/// Why a cascade file could not be used; the text names what is wrong and where.
public struct CascadeError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String

    init(_ description: String) { self.description = description }
}
