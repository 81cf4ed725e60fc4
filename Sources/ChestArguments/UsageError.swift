/// A command line that cannot be understood: exit status 64 (EX_USAGE) with one line saying what to write.
public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }

    /// EX_USAGE from sysexits.h.
    public static let exitStatus: Int32 = 64
}
