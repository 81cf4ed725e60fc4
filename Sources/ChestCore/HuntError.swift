/// Why a hunt file or a message from the broker cannot be used: a sentence saying what is wrong and, where it
/// helps, what to do (docs/HUNTS.md).
public struct HuntError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
