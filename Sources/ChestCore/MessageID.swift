/// A message's stable identifier: 32 lowercase hexadecimal digits, chosen at compose time and sealed in the file.
public struct MessageID: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    public let rawValue: String

    /// Accepts exactly 32 lowercase hexadecimal digits.
    public init?(_ text: String) {
        guard text.utf8.count == 32, text.utf8.allSatisfy(\.isLowerHex) else { return nil }
        rawValue = text
    }

    /// Makes an identifier from 16 random bytes.
    public init(bytes: [UInt8]) {
        precondition(bytes.count == 16)
        rawValue = bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0xf)]])
        }.joined()
    }

    public var description: String { rawValue }

    /// The first 8 digits: how lists show it.
    public var short: String { String(rawValue.prefix(8)) }

    public static func < (lhs: MessageID, rhs: MessageID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = MessageID(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a message ID"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension UInt8 {
    var isLowerHex: Bool { (0x30...0x39).contains(self) || (0x61...0x66).contains(self) }
}
