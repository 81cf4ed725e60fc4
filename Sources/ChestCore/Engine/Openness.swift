/// How much of a message is open, as `list`, `read` and `status` say it.
public enum Openness: String, Hashable, Sendable, Codable, CustomStringConvertible {
    case locked, partial, open

    public var description: String { rawValue }
}
