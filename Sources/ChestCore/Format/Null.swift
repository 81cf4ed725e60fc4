/// An optional that JSON shows as `null` when absent, rather than leaving its key out as Codable would: other
/// programs read `chest status --json` and expect every field of docs/DESIGN.md "Commands and output" to be there.
@propertyWrapper
public struct Null<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A missing key reads as nil, as it would for a plain optional.
    public func decode<Value>(_ type: Null<Value>.Type, forKey key: Key) throws -> Null<Value> {
        try decodeIfPresent(type, forKey: key) ?? Null(wrappedValue: nil)
    }
}
