/// A command line that cannot be understood: exit status 64 (EX_USAGE) with one line saying what to write.
package struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    package var description: String
    /// Whether `description` is itself the usage line, so no second one is printed after it.
    package var isUsage: Bool

    package init(_ description: String, isUsage: Bool = false) {
        self.description = description
        self.isUsage = isUsage
    }

    /// EX_USAGE from sysexits.h.
    package static let exitStatus: Int32 = 64
}
