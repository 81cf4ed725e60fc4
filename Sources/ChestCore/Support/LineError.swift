/// A line of a text file (a walk description, a GPX file) that could not be read, and why.
package struct LineError: Error, Hashable, Sendable, CustomStringConvertible {
    package let line: Int
    package let reason: String

    package init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    package var description: String { "line \(line): \(reason)" }
}
