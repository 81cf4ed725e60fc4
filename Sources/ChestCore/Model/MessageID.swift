/// A message's stable identifier: 128 random bits chosen at compose time and sealed in the file, written as
/// 32 lowercase hexadecimal digits. Kept as two integers: a chest holds thousands, each filed in several indexes.
package struct MessageID: Hashable, Sendable, Comparable, TextCodable, CodingKeyRepresentable {
    private let high: UInt64
    private let low: UInt64

    /// Accepts exactly 32 lowercase hexadecimal digits.
    package init?(_ text: String) {
        guard text.utf8.count == 32, text.utf8.allSatisfy(\.isLowerHex),
            let high = UInt64(text.prefix(16), radix: 16), let low = UInt64(text.suffix(16), radix: 16)
        else { return nil }
        self.high = high
        self.low = low
    }

    /// Makes an identifier from 16 bytes (random ones, at compose time).
    package init(bytes: [UInt8]) {
        precondition(bytes.count == 16)
        high = bytes[..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes[8...].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The 32 hexadecimal digits.
    package var rawValue: String { Self.hex(high) + Self.hex(low) }

    package var description: String { rawValue }

    /// The first 8 digits: how lists show it.
    package var short: String { String(rawValue.prefix(8)) }

    package static func < (lhs: MessageID, rhs: MessageID) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The chest ID of another sender's message with this ID, when this ID is taken in the chest: the `number`th
    /// (from 1) of a sequence made of the ID and the sender's key (docs/SECURITY.md "Round five (issue 61)"). Anyone
    /// can work it out, so the chest takes the next one when a squatter holds it: a squatter needs a message in
    /// the chest for each. FNV-1a over the ID's 16 bytes, the key and the number, twice with two starting values,
    /// each mixed by SplitMix64's finaliser: fixed, since the chest names files by it.
    package func filed(_ number: UInt16, key: [UInt8]) -> MessageID {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x8422_2325_cbf2_9ce4
        func mix(_ byte: UInt8) {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        for shift in stride(from: 56, through: 0, by: -8) { mix(UInt8(truncatingIfNeeded: high >> UInt64(shift))) }
        for shift in stride(from: 56, through: 0, by: -8) { mix(UInt8(truncatingIfNeeded: low >> UInt64(shift))) }
        for byte in key { mix(byte) }
        mix(UInt8(truncatingIfNeeded: number >> 8))
        mix(UInt8(truncatingIfNeeded: number))
        return MessageID(high: Self.finished(first), low: Self.finished(second ^ first))
    }

    private static func finished(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension UInt8 {
    var isLowerHex: Bool { (0x30...0x39).contains(self) || (0x61...0x66).contains(self) }
}

/// A value written in JSON as its text: `init?(_:)` reads it, `description` writes it.
package protocol TextCodable: Codable, CustomStringConvertible {
    init?(_ text: String)
    /// Why `text` is not one, in words: what a decoding error says.
    static func problem(reading text: String) -> String
}

extension TextCodable {
    package static func problem(reading text: String) -> String { "not a \(Self.self): \(text)" }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: Self.problem(reading: text))
        }
        self = value
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
