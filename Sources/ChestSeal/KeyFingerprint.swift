import CSodium
import FoundationEssentials

/// A short fingerprint of an Ed25519 public key for people to compare (docs/SECURITY.md "Known senders"): the
/// first 8 bytes of its BLAKE2b hash, in hex, in groups of four. Only shown: chest compares whole keys.
package enum KeyFingerprint {
    package static func short(_ base64Key: String) -> String {
        guard let key = Data(base64Encoded: base64Key) else { return "not-a-key" }
        Sealer.initialize()
        let bytes = [UInt8](key)
        var hash = [UInt8](repeating: 0, count: 8)
        _ = crypto_generichash(&hash, hash.count, bytes, UInt64(bytes.count), nil, 0)
        let hex = hash.map { String(printf: "%02x", $0) }.joined()
        return stride(from: 0, to: hex.count, by: 4).map { offset in
            String(hex.dropFirst(offset).prefix(4))
        }.joined(separator: ":")
    }
}
