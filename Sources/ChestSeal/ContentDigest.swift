import CSodium

/// SHA-256 of a mission's submission, hex (docs/HUNTS.md "Missions"): how the board's journal, its photo folder and
/// the organiser's verdict name what was judged, and what `sha256sum` says of the photo.
package enum ContentDigest {
    package static func hex(_ bytes: [UInt8]) -> String {
        Sealer.initialize()
        var hash = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        _ = crypto_hash_sha256(&hash, bytes, UInt64(bytes.count))
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(hash.count * 2)
        for byte in hash {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
