/// A JSON object's key as text: what a `TextCodable` dictionary key is written as.
struct TextKey: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// A `TextCodable` type that keys a dictionary writes the dictionary as a JSON object keyed by its text, the bytes a
/// `[String: V]` of the same texts would write; a key that is not one of its texts fails the decoding.
extension CodingKeyRepresentable where Self: TextCodable {
    package var codingKey: any CodingKey { TextKey(stringValue: description) }
    package init?<T: CodingKey>(codingKey: T) { self.init(codingKey.stringValue) }
}
