import CSodium
import ChestCore
import FoundationEssentials

/// Signs and checks the messages of a hunt with Ed25519, and makes a hunt's keys, IDs and passwords
/// (docs/HUNTS.md "Messages on the broker").
package enum HuntSigner {
    /// The envelope with `key` and `signature` set, signed with an Ed25519 secret key (64 bytes: a team's, from
    /// the hunt file). The corresponding C functions are `crypto_sign_ed25519_sk_to_pk` and `crypto_sign_detached`.
    package static func sign(_ envelope: HuntEnvelope, secretKey: [UInt8]) -> HuntEnvelope {
        precondition(secretKey.count == Int(crypto_sign_SECRETKEYBYTES), "an Ed25519 secret key is 64 bytes")
        Sealer.initialize()
        var publicKey = [UInt8](repeating: 0, count: Int(crypto_sign_PUBLICKEYBYTES))
        _ = crypto_sign_ed25519_sk_to_pk(&publicKey, secretKey)
        var signed = envelope
        signed.key = Data(publicKey).base64EncodedString()
        let bytes = [UInt8](signed.signedBytes)
        var signature = [UInt8](repeating: 0, count: Int(crypto_sign_BYTES))
        _ = crypto_sign_detached(&signature, nil, bytes, UInt64(bytes.count), secretKey)
        signed.signature = Data(signature).base64EncodedString()
        return signed
    }

    /// Signed with this user's identity: the organiser's messages.
    package static func sign(_ envelope: HuntEnvelope, with identity: Identity) -> HuntEnvelope {
        sign(envelope, secretKey: identity.secretKey)
    }

    /// Signed with a team's secret key from a hunt file; nil when the team has none there (or it is malformed).
    package static func sign(_ envelope: HuntEnvelope, team: HuntTeam) -> HuntEnvelope? {
        guard let secret = team.secretKey.flatMap({ Data(base64Encoded: $0) }),
            secret.count == Int(crypto_sign_SECRETKEYBYTES)
        else { return nil }
        return sign(envelope, secretKey: [UInt8](secret))
    }

    /// Whether the signature matches `envelope.key` over the envelope's signed bytes (whose key belongs to whom is
    /// `HuntGate`'s question). The corresponding C function is `crypto_sign_verify_detached`.
    package static func isValid(_ envelope: HuntEnvelope) -> Bool {
        Sealer.initialize()
        guard let key = Data(base64Encoded: envelope.key), key.count == Int(crypto_sign_PUBLICKEYBYTES),
            let signature = envelope.signature.flatMap({ Data(base64Encoded: $0) }),
            signature.count == Int(crypto_sign_BYTES)
        else { return false }
        let bytes = [UInt8](envelope.signedBytes)
        return crypto_sign_verify_detached([UInt8](signature), bytes, UInt64(bytes.count), [UInt8](key)) == 0
    }

    /// A new Ed25519 key pair for a team, base64. The corresponding C function is `crypto_sign_keypair`.
    package static func newTeamKeys() -> (publicKey: String, secretKey: String) {
        Sealer.initialize()
        var publicKey = [UInt8](repeating: 0, count: Int(crypto_sign_PUBLICKEYBYTES))
        var secretKey = [UInt8](repeating: 0, count: Int(crypto_sign_SECRETKEYBYTES))
        crypto_sign_keypair(&publicKey, &secretKey)
        return (Data(publicKey).base64EncodedString(), Data(secretKey).base64EncodedString())
    }

    /// 32 random bytes: a release key.
    package static func newReleaseKey() -> ReleaseKey { ReleaseKey(bytes: Sealer.randomBytes(32)) }

    /// 16 random bytes as 32 lowercase hex characters.
    package static func newHuntID() -> HuntID {
        HuntID(
            Sealer.randomBytes(16).map {
                String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
            }
            .joined())!
    }

    /// 24 random URL-safe characters (18 random bytes, 144 bits, in base64url): an MQTT password that needs no
    /// quoting in a Mosquitto password file or a shell.
    package static func newPassword() -> String {
        Data(Sealer.randomBytes(18)).base64EncodedString()
            .replacing("+", with: "-").replacing("/", with: "_")
    }
}
