/// An error with a sentence that says what happened and what to do.
package struct ChestError: Error, Hashable, Sendable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}
