/// A line of a text file (a walk description, a GPX file) that could not be read, and why.
public struct LineError: Error, Hashable, Sendable, CustomStringConvertible {
    public let line: Int
    public let reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "line \(line): \(reason)" }
}
