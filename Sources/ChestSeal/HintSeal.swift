import CSodium
import FoundationEssentials

/// A hint's key sealed to one reader (docs/HUNTS.md "Reader keys"): a libsodium sealed box to the X25519 form of the
/// reader's Ed25519 identity key. Only that reader opens it; the board that sealed it keeps nothing it needs.
package enum HintSeal {
    private static var sealBytes: Int { crypto_box_sealbytes() }

    /// `key` sealed to `reader` (a base64 Ed25519 public key: a reader's, as statuses and receipts claim it, or a
    /// team's, as the hunt file has it); nil when `reader` is not such a key.
    package static func seal(_ key: Data, toReader reader: String) -> Data? {
        Sealer.initialize()
        guard let edKey = Data(base64Encoded: reader), edKey.count == Int(crypto_sign_PUBLICKEYBYTES) else {
            return nil
        }
        var boxKey = [UInt8](repeating: 0, count: Int(crypto_box_PUBLICKEYBYTES))
        guard crypto_sign_ed25519_pk_to_curve25519(&boxKey, [UInt8](edKey)) == 0 else { return nil }
        var sealed = [UInt8](repeating: 0, count: key.count + sealBytes)
        guard crypto_box_seal(&sealed, [UInt8](key), UInt64(key.count), boxKey) == 0 else { return nil }
        return Data(sealed)
    }

    /// The key in `sealed` if it was sealed to `identity`; nil when it was not, or was altered.
    package static func open(_ sealed: Data, with identity: Identity) -> Data? {
        open(sealed, withSecretKey: identity.secretKey)
    }

    /// The key in `sealed` if it was sealed to the Ed25519 key pair whose secret key (libsodium's 64 bytes: the seed,
    /// then the public key) is `edSecret`, such as a team's key from its join file (docs/HUNTS.md "A clock for each
    /// team"); nil when it was not, or was altered.
    package static func open(_ sealed: Data, withSecretKey edSecret: [UInt8]) -> Data? {
        Sealer.initialize()
        guard sealed.count > sealBytes, edSecret.count == Int(crypto_sign_SECRETKEYBYTES) else { return nil }
        var publicKey = [UInt8](repeating: 0, count: Int(crypto_box_PUBLICKEYBYTES))
        var secretKey = [UInt8](repeating: 0, count: Int(crypto_box_SECRETKEYBYTES))
        defer { sodium_memzero(&secretKey, secretKey.count) }
        guard crypto_sign_ed25519_pk_to_curve25519(&publicKey, Array(edSecret.suffix(32))) == 0,
            crypto_sign_ed25519_sk_to_curve25519(&secretKey, edSecret) == 0
        else { return nil }
        var key = [UInt8](repeating: 0, count: sealed.count - sealBytes)
        guard crypto_box_seal_open(&key, [UInt8](sealed), UInt64(sealed.count), publicKey, secretKey) == 0 else {
            return nil
        }
        return Data(key)
    }
}
