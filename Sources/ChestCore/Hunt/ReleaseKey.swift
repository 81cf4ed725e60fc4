import struct FoundationEssentials.Data

/// The key of a release (docs/HUNTS.md "Messages on the broker"): 32 random bytes in base64, made by `compose --lock
/// release=NAME --hunt`, kept in the organiser's hunt file and published by `chest hunt release`. The text is kept as
/// written: the release's pages derive their key from it (`SealSecret`), and the organiser's signature covers it.
package struct ReleaseKey: Hashable, Sendable, TextCodable {
    /// The key in base64, as written.
    package let base64: String

    /// Accepts 32 bytes in base64.
    package init?(_ text: String) {
        guard HuntFile.base64(text, bytes: 32) else { return nil }
        base64 = text
    }

    /// A key of these 32 bytes (random ones, made by ChestSeal's `HuntSigner.newReleaseKey`).
    package init(bytes: [UInt8]) {
        precondition(bytes.count == 32)
        base64 = Data(bytes).base64EncodedString()
    }

    package var description: String { base64 }

    package static func problem(reading text: String) -> String { "the key is not 32 bytes in base64" }
}
