/// An error with a sentence that says what happened and what to do.
public struct ChestError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
