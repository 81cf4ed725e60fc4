import Foundation

/// The JSON conventions of every output and reply: ISO 8601 times, stable key order.
public enum ChestJSON {
    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// One compact line of `value`.
    public static func line<T: Encodable>(_ value: T) -> Data {
        (try? encoder().encode(value)) ?? Data(#"{"ok":false,"error":"unencodable reply"}"#.utf8)
    }
}
