/// How much of a message is open, as `list`, `read` and `status` say it.
package enum Openness: String, Hashable, Sendable, Codable, CustomStringConvertible {
    case locked, partial, open

    package var description: String { rawValue }
}
