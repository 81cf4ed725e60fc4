/// An optional that JSON shows as `null` when absent, rather than leaving its key out as Codable would: other
/// programs read `chest status --json` and expect every field of docs/DESIGN.md "Commands and output" to be there.
@propertyWrapper
package struct Null<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    package var wrappedValue: Value?

    package init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A missing key reads as nil, as it would for a plain optional.
    package func decode<Value>(_ type: Null<Value>.Type, forKey key: Key) throws -> Null<Value> {
        try decodeIfPresent(type, forKey: key) ?? Null(wrappedValue: nil)
    }
}
