import ChestArguments

/// A command line that cannot be understood; the type lives with the parser, and the core's users keep its name.
public typealias UsageError = ChestArguments.UsageError

/// The version both executables report.
public enum ChestVersion {
    public static let string = "0.1.0"
}
