/// A command line that cannot be understood: exit status 64 (EX_USAGE) with one line saying what to write.
public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }

    public static let exitStatus: Int32 = 64
}

/// The version both executables report.
public enum ChestVersion {
    public static let string = "0.1.0"
}
