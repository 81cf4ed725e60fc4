import FoundationEssentials

/// The JSON conventions of every output and reply: ISO 8601 times, stable key order.
package enum ChestJSON {
    package static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601.string(date))
        }
        encoder.outputFormatting =
            pretty
            ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISO8601.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 time: \(text)")
            }
            return date
        }
        return decoder
    }

    /// A field an event line of kind `event` cannot do without (`chest watch --json`, `chest board --json`).
    package static func required<T>(_ value: T?, _ field: String, event: String, in decoder: any Decoder) throws -> T {
        guard let value else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a \(event) event without \(field)"))
        }
        return value
    }

    /// One compact line of `value`.
    package static func line<T: Encodable>(_ value: T) -> Data {
        (try? encoder().encode(value)) ?? Data(#"{"ok":false,"error":"unencodable reply"}"#.utf8)
    }
}
